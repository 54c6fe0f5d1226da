"""The one error tree of kg-context.

Every error the library raises on purpose is a ``KgContextError``; driver errors are wrapped,
never leaked as bare ``neo4j`` exceptions::

    KgContextError
    ├── ConfigurationError            a setting, file or argument that cannot be used
    ├── InputValidationError          bad input at the edge (pydantic errors turned into ours)
    ├── CatalogError                  a Cypher file is missing, or a caller's parameters differ
    ├── DatabaseError                 something went wrong talking to Neo4j
    │   ├── DatabaseUnavailableError  the URI does not answer (wrong host/port, server down)
    │   ├── AuthenticationError       the server refused the credentials
    │   ├── DatabaseNotFoundError     the server has no database by the name asked for
    │   ├── QueryError                the server refused or failed a statement
    │   └── SchemaError               the database's schema is not this kg-context's (apply it)
    ├── StateError                    the record is not in a state that allows the request
    ├── AuthorizationError            an operator act by an id the constitution does not name
    ├── LocalServerError              provisioning, starting or stopping the local Neo4j failed
    └── EmbeddingError                the embedding model cannot be loaded or used

Each error carries a one-line, user-facing message (``str(err)``) that names what to do next;
the CLI prints that line and never a traceback.
"""

from __future__ import annotations

__all__ = [
    "AuthenticationError",
    "AuthorizationError",
    "CatalogError",
    "ConfigurationError",
    "DatabaseError",
    "DatabaseNotFoundError",
    "DatabaseUnavailableError",
    "EmbeddingError",
    "InputValidationError",
    "KgContextError",
    "LocalServerError",
    "QueryError",
    "SchemaError",
    "StateError",
    "field_path",
]


class KgContextError(Exception):
    """Root of every error kg-context raises on purpose."""


class ConfigurationError(KgContextError):
    """A setting, file or argument that cannot be used as given."""


class InputValidationError(KgContextError):
    """Input that fails validation at the edge; nothing was changed."""


class CatalogError(KgContextError):
    """A Cypher file is missing, or a caller's parameters do not match the file's."""


class DatabaseError(KgContextError):
    """Something went wrong talking to Neo4j."""


class DatabaseUnavailableError(DatabaseError):
    """The database URI does not answer."""


class AuthenticationError(DatabaseError):
    """The server refused the credentials."""


class DatabaseNotFoundError(DatabaseError):
    """The server answers but has no database named ``database`` (``NEO4J_DATABASE``): a
    Community server serves one user database; another is created on Enterprise or Aura."""

    def __init__(self, message: str, *, database: str | None, uri: str) -> None:
        super().__init__(message)
        self.database = database
        self.uri = uri


class QueryError(DatabaseError):
    """The server refused or failed a statement."""

    def __init__(self, message: str, *, code: str | None = None, query: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.query = query


class SchemaError(DatabaseError):
    """The database does not hold this kg-context's schema (missing, older, or newer), or the
    schema could not be applied; the message names the command to run."""


class StateError(KgContextError):
    """The record is not in a state that allows the request (a halt already resolved, an
    illegal status transition, an unknown id)."""


class AuthorizationError(KgContextError):
    """An act reserved to the operators (or czars) a boundary's constitution names, asked by an
    id it does not name; nothing was written."""


class LocalServerError(KgContextError):
    """Provisioning, starting or stopping the local Neo4j server failed."""


class EmbeddingError(KgContextError):
    """The embedding model cannot be loaded or used."""


def field_path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """A validation error's location as one printable line: ``entries.0.key``. A part a writer
    chose (an unknown key) is shown escaped and cut at 60 characters: a key holding a newline
    or a megabyte never makes an error message span lines or carry the payload."""
    parts = []
    for part in loc:
        text = str(part)
        if not (text.isprintable() and text.strip() == text and text):
            text = repr(text)
        parts.append(text if len(text) <= 60 else text[:57] + "...")
    return ".".join(parts)
