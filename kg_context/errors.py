"""The one error tree of kg-context: every error the library raises on purpose is a
``KgContextError`` (driver errors are wrapped, never leaked), with a one-line, user-facing
message that names what to do next (the tree: docs/internals.md).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CONTEXT_FIELDS",
    "AuthenticationError",
    "AuthorityRefused",
    "AuthorizationError",
    "CatalogError",
    "ConfigurationError",
    "DatabaseError",
    "DatabaseNotFoundError",
    "DatabaseUnavailableError",
    "EmbeddingError",
    "InputRefused",
    "InputValidationError",
    "KgContextError",
    "LocalServerError",
    "ModelOutputError",
    "OperatorActRefused",
    "OutputProblem",
    "QueryError",
    "RefusalError",
    "ReservedIdError",
    "SchemaError",
    "StateError",
    "field_path",
]


CONTEXT_FIELDS: tuple[str, ...] = (
    "boundary_id",
    "reason_code",
    "halt_id",
    "set_id",
    "entry_id",
    "proposal_id",
    "writer_id",
)
"""The context an error may carry, in this order: what a surface shows beside the message."""


class KgContextError(Exception):
    """Root of every error kg-context raises on purpose. Besides its one-line message it carries
    what it is about as attributes, ``None`` where they do not apply: ``boundary_id``,
    ``reason_code`` (the gate's reason code, e.g. ``NOT_OPERATOR``), ``halt_id``, ``set_id``,
    ``entry_id``, ``proposal_id`` and ``writer_id`` (the writer or operator who asked, or whom
    the error names). ``context`` gives the ones that apply as a dict, so no caller ever reads
    them out of the message."""

    def __init__(
        self,
        *args: object,
        boundary_id: str | None = None,
        reason_code: str | None = None,
        halt_id: str | None = None,
        set_id: str | None = None,
        entry_id: str | None = None,
        proposal_id: str | None = None,
        writer_id: str | None = None,
    ) -> None:
        super().__init__(*args)
        self.boundary_id = boundary_id
        self.reason_code = reason_code
        self.halt_id = halt_id
        self.set_id = set_id
        self.entry_id = entry_id
        self.proposal_id = proposal_id
        self.writer_id = writer_id

    @property
    def context(self) -> dict[str, str]:
        """The context that applies (the attributes of ``CONTEXT_FIELDS`` that are not
        ``None``), a new dict on every read."""
        found = ((name, getattr(self, name)) for name in CONTEXT_FIELDS)
        return {name: str(value) for name, value in found if value is not None}


class ConfigurationError(KgContextError):
    """A setting, file or argument that cannot be used as given."""


class InputValidationError(KgContextError):
    """Input that fails validation at the edge; nothing was changed."""


@dataclass(frozen=True, slots=True)
class OutputProblem:
    """One problem of a model's output: where (a JSON path, ``$.entries[0].class``), what the
    proposal schema expects there, and what was given (quoted, cut short)."""

    path: str
    expected: str
    given: str

    def line(self) -> str:
        return f"{self.path}: expected {self.expected}; given {self.given}"


class ModelOutputError(InputValidationError):
    """A model's output that is not a proposal: every problem with its JSON path, what was
    expected and what was given (``problems``; the first also as ``path``, ``expected`` and
    ``given``). Nothing was recorded. ``feedback()`` is the text to hand the model back."""

    def __init__(self, problems: tuple[OutputProblem, ...] | list[OutputProblem]) -> None:
        self.problems = tuple(problems)
        if not self.problems:
            raise ValueError("a ModelOutputError names at least one problem")
        first = self.problems[0]
        self.path, self.expected, self.given = first.path, first.expected, first.given
        more = len(self.problems) - 1
        super().__init__(
            f"model output is not a proposal: {first.line()}"
            + (f" (and {more} more)" if more else "")
        )

    def feedback(self) -> str:
        """What the model is told: nothing was recorded, and each problem on its own line."""
        lines = ["REJECTED: your output is not a valid proposal; nothing was recorded."]
        lines += [f"- {p.line()}" for p in self.problems]
        lines.append("Answer again with one JSON object matching the proposal schema.")
        return "\n".join(lines)


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


class ReservedIdError(AuthorizationError):
    """A proposal whose id or set id lies in a namespace the gate reserves (the czar's
    compaction sets, constitution changes) for a writer it does not reserve it to; nothing was
    written. ``reason_code`` is the gate's reason code; ``proposal_id``, ``taken_id`` and
    ``writer_id`` say which proposal, which id and whose."""

    reason_code: str
    proposal_id: str
    writer_id: str

    def __init__(
        self,
        message: str,
        *,
        reason_code: str,
        proposal_id: str,
        taken_id: str,
        writer_id: str,
        boundary_id: str | None = None,
        set_id: str | None = None,
    ) -> None:
        super().__init__(
            message,
            reason_code=reason_code,
            proposal_id=proposal_id,
            writer_id=writer_id,
            boundary_id=boundary_id,
            set_id=set_id,
        )
        self.taken_id = taken_id


class RefusalError(KgContextError):
    """A refusal with a typed reason (``code``, e.g. ``WRITER_REVOKED``, also its
    ``reason_code``) and the fix it suggests (``fix``); nothing was written. The context
    keywords are the base's."""

    reason_code: str

    def __init__(self, message: str, *, code: str, fix: str, **context: str | None) -> None:
        super().__init__(f"{message} [{code}]; {fix}", reason_code=code, **context)
        self.code = code
        self.fix = fix


class AuthorityRefused(RefusalError, AuthorizationError):
    """An act refused because the graph does not give the asker that authority (e.g. a wave
    naming a specialist another writer registered)."""


class OperatorActRefused(AuthorityRefused):
    """An operator act refused: asked by an id that is no operator, or on a subject it cannot
    apply to."""


class InputRefused(RefusalError, InputValidationError):
    """Input refused at the edge before anything is written, with a typed reason."""


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
