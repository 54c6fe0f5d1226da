"""How a ``neo4j`` driver exception reaches a user: as a kg-context error whose one-line message
says what failed and what to do (``translate_driver_errors``), never as a bare driver exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from neo4j import exceptions as neo4j_errors

from kg_context.errors import (
    AuthenticationError,
    ConfigurationError,
    DatabaseError,
    DatabaseNotFoundError,
    DatabaseUnavailableError,
    QueryError,
)

__all__ = ["DATABASE_NOT_FOUND", "first_line", "one_line", "translate_driver_errors"]

# The server's code for a database name it does not serve.
DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"


@contextmanager
def translate_driver_errors(
    uri: str, what: str = "query", *, database: str | None = None
) -> Iterator[None]:
    """Turn ``neo4j`` exceptions into kg-context errors with a message that says what to do;
    ``database`` is the one asked for (named when the server has no such database)."""
    try:
        yield
    except neo4j_errors.IncompleteCommit as err:
        raise DatabaseUnavailableError(
            f"the connection to Neo4j at {uri} dropped while a {what} committed, so whether it "
            f"committed is unknown ({one_line(err)}); submit the same proposal ids again: the "
            "gate answers a decided proposal with its recorded decision"
        ) from err
    except neo4j_errors.AuthError as err:
        raise AuthenticationError(
            f"Neo4j at {uri} refused the credentials ({err.message or err}); "
            "check NEO4J_USERNAME / NEO4J_PASSWORD"
        ) from err
    except neo4j_errors.ServiceUnavailable as err:
        raise DatabaseUnavailableError(
            f"cannot reach Neo4j at {uri} ({one_line(err)}); check NEO4J_URI, or unset it "
            "and run `kg-context neo4j start` for the local server"
        ) from err
    except neo4j_errors.ConfigurationError as err:
        raise ConfigurationError(f"unusable Neo4j configuration for {uri}: {err}") from err
    except neo4j_errors.Neo4jError as err:
        if err.code == DATABASE_NOT_FOUND:
            name = repr(database) if database is not None else "asked for"
            raise DatabaseNotFoundError(
                f"Neo4j at {uri} has no database {name} ({first_line(err.message or err)}); "
                "set NEO4J_DATABASE to one it serves (`SHOW DATABASES`), or create it "
                "(`CREATE DATABASE`: Enterprise, or Aura's multi-database tiers; a Community "
                "server serves one user database, by default `neo4j`)",
                database=database,
                uri=uri,
            ) from err
        raise QueryError(
            f"Neo4j refused the {what}: {err.code}: {first_line(err.message or err)}",
            code=err.code,
            query=what,
        ) from err
    except neo4j_errors.DriverError as err:
        raise DatabaseError(f"Neo4j driver error talking to {uri}: {one_line(err)}") from err


def first_line(value: object) -> str:
    """The first line of a message (a server's message can carry a stack of causes)."""
    text = str(value).strip()
    return text.splitlines()[0] if text else type(value).__name__


_CAUSE_LIMIT = 400


def one_line(value: object) -> str:
    """The whole message on one line, bounded: a driver's "Couldn't connect to ...:" line is
    followed by the cause ("Connection refused"), which must not be cut off."""
    text = re.sub(r"\s+", " ", str(value)).strip() or type(value).__name__
    return text if len(text) <= _CAUSE_LIMIT else text[: _CAUSE_LIMIT - 3] + "..."
