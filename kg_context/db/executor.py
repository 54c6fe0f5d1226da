"""The small executor interface every repository takes, and its Neo4j implementation.

Callers name a query from the catalog and pass its parameters as keywords; they never hold Cypher
text. Reads go through ``execute_query(..., routing_=READ)``, writes through managed transactions
(the driver retries transient failures, so units of work must be idempotent), and every call names
its database. One bookmark manager per executor makes a read after a write see it on a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from kg_context.db.catalog import Catalog, Query, default_catalog
from kg_context.errors import (
    AuthenticationError,
    ConfigurationError,
    DatabaseError,
    DatabaseUnavailableError,
    QueryError,
)

__all__ = ["Neo4jExecutor", "QueryExecutor", "Record", "Transaction", "translate_driver_errors"]

T = TypeVar("T")
Record = dict[str, Any]


class Transaction(Protocol):
    """One open transaction: run catalog queries by name."""

    def run(self, name: str, /, **params: Any) -> list[Record]: ...


class QueryExecutor(Protocol):
    """What the gate, czar, scorer and stores need from a database."""

    @property
    def database(self) -> str: ...

    def read(self, name: str, /, **params: Any) -> list[Record]: ...

    def write(self, name: str, /, **params: Any) -> list[Record]: ...

    def read_tx(self, work: Callable[[Transaction], T]) -> T: ...

    def write_tx(self, work: Callable[[Transaction], T]) -> T: ...


@contextmanager
def translate_driver_errors(uri: str, what: str = "query") -> Iterator[None]:
    """Turn ``neo4j`` exceptions into kg-context errors with a message that says what to do."""
    try:
        yield
    except neo4j_errors.AuthError as err:
        raise AuthenticationError(
            f"Neo4j at {uri} refused the credentials ({err.message or err}); "
            "check NEO4J_USERNAME / NEO4J_PASSWORD"
        ) from err
    except neo4j_errors.ServiceUnavailable as err:
        raise DatabaseUnavailableError(
            f"cannot reach Neo4j at {uri} ({_first_line(err)}); check NEO4J_URI, or unset it "
            "and run `kg-context neo4j start` for the local server"
        ) from err
    except neo4j_errors.ConfigurationError as err:
        raise ConfigurationError(f"unusable Neo4j configuration for {uri}: {err}") from err
    except neo4j_errors.Neo4jError as err:
        raise QueryError(
            f"Neo4j refused the {what}: {err.code}: {_first_line(err.message or err)}",
            code=err.code,
            query=what,
        ) from err
    except neo4j_errors.DriverError as err:
        raise DatabaseError(f"Neo4j driver error talking to {uri}: {_first_line(err)}") from err


def _first_line(value: object) -> str:
    text = str(value).strip()
    return text.splitlines()[0] if text else type(value).__name__


def _as_dict(record: neo4j.Record) -> Record:
    """A record as a plain dict. The catalog's statements return values and maps, never bare
    nodes, so no recursive conversion (``Record.data()``) is needed: large lists stay cheap."""
    return dict(zip(record.keys(), record.values(), strict=True))


class _Tx:
    def __init__(self, tx: neo4j.ManagedTransaction, catalog: Catalog) -> None:
        self._tx = tx
        self._catalog = catalog

    def run(self, name: str, /, **params: Any) -> list[Record]:
        query = self._catalog[name]
        result = self._tx.run(query.text, query.bind(params))
        return [_as_dict(record) for record in result]


class Neo4jExecutor:
    """A ``QueryExecutor`` over one driver and one database."""

    def __init__(
        self,
        driver: neo4j.Driver,
        *,
        database: str,
        uri: str,
        catalog: Catalog | None = None,
    ) -> None:
        self._driver = driver
        self._database = database
        self._uri = uri
        self._catalog = catalog or default_catalog()
        self._bookmarks = neo4j.GraphDatabase.bookmark_manager()

    @property
    def database(self) -> str:
        return self._database

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    def _execute(
        self, query: Query, params: dict[str, Any], routing: neo4j.RoutingControl
    ) -> list[Record]:
        with translate_driver_errors(self._uri, query.name):
            records, _, _ = self._driver.execute_query(
                query.text,
                query.bind(params),
                database_=self._database,
                routing_=routing,
                bookmark_manager_=self._bookmarks,
            )
        return [_as_dict(record) for record in records]

    def read(self, name: str, /, **params: Any) -> list[Record]:
        return self._execute(self._catalog[name], params, neo4j.RoutingControl.READ)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        return self._execute(self._catalog[name], params, neo4j.RoutingControl.WRITE)

    def read_tx(self, work: Callable[[Transaction], T]) -> T:
        with (
            translate_driver_errors(self._uri, "read transaction"),
            self._driver.session(database=self._database, bookmark_manager=self._bookmarks) as s,
        ):
            return s.execute_read(lambda tx: work(_Tx(tx, self._catalog)))

    def write_tx(self, work: Callable[[Transaction], T]) -> T:
        with (
            translate_driver_errors(self._uri, "write transaction"),
            self._driver.session(database=self._database, bookmark_manager=self._bookmarks) as s,
        ):
            return s.execute_write(lambda tx: work(_Tx(tx, self._catalog)))
