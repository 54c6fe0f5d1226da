"""The small executor interface every repository takes, and its Neo4j implementation.

Callers name a query from the catalog and pass parameters; every call is a managed, idempotent
transaction that names its database, with bookmarks so a read after a write sees it. The
executor retries and counts failures itself (``RetryPolicy``, ``retry_counts``).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from kg_context.db.catalog import Catalog, Query, default_catalog
from kg_context.db.driver_errors import one_line, translate_driver_errors
from kg_context.db.retry import DEADLOCK, RetryCounts, Retrying, RetryPolicy, is_unavailable
from kg_context.db.timing import UnitClock, UnitTiming, timed_send
from kg_context.errors import (
    DatabaseUnavailableError,
)

__all__ = [
    "DEADLOCK",
    "Neo4jExecutor",
    "QueryExecutor",
    "Record",
    "RetryCounts",
    "RetryPolicy",
    "Transaction",
    "is_unavailable",
    "translate_driver_errors",
]

T = TypeVar("T")
Record = dict[str, Any]


class Transaction(Protocol):
    """One open transaction: run catalog queries by name."""

    def run(self, name: str, /, **params: Any) -> list[Record]: ...

    def send(self, name: str, /, **params: Any) -> Callable[[], list[Record]]:
        """Send a statement without waiting for it: the server runs it while the caller goes
        on, and the function returned reads its rows (a statement sent after it in the same
        transaction runs after it)."""
        ...


class QueryExecutor(Protocol):
    """What the gate, czar, scorer and stores need from a database."""

    @property
    def database(self) -> str: ...

    def read(self, name: str, /, **params: Any) -> list[Record]: ...

    def write(self, name: str, /, **params: Any) -> list[Record]: ...

    def read_tx(self, work: Callable[[Transaction], T]) -> T: ...

    def write_tx(self, work: Callable[[Transaction], T]) -> T: ...


def _as_dict(record: neo4j.Record) -> Record:
    """A record as a plain dict. The catalog's statements return values and maps, never bare
    nodes, so no recursive conversion (``Record.data()``) is needed: large lists stay cheap."""
    return dict(zip(record.keys(), record.values(), strict=True))


class _Tx:
    def __init__(
        self,
        tx: neo4j.ManagedTransaction,
        catalog: Catalog,
        ran: Callable[[str], None],
        clock: UnitClock | None = None,
    ) -> None:
        self._tx = tx
        self._catalog = catalog
        self._ran = ran
        self._clock = clock

    def run(self, name: str, /, **params: Any) -> list[Record]:
        query = self._catalog[name]
        return self.run_bound(query, query.bind(params))

    def run_bound(self, query: Query, params: dict[str, Any]) -> list[Record]:
        return self._send_bound(query, params)()

    def send(self, name: str, /, **params: Any) -> Callable[[], list[Record]]:
        query = self._catalog[name]
        return self._send_bound(query, query.bind(params))

    def _send_bound(self, query: Query, params: dict[str, Any]) -> Callable[[], list[Record]]:
        self._ran(query.name)
        if self._clock is not None:
            timed = timed_send(self._tx, query.name, query.text, params, self._clock.statements)
            return lambda: [_as_dict(record) for record in timed()]
        result = self._tx.run(query.text, params)
        return lambda: [_as_dict(record) for record in result]


class Neo4jExecutor:
    """A ``QueryExecutor`` over one driver and one database."""

    def __init__(
        self,
        driver: neo4j.Driver,
        *,
        database: str,
        uri: str,
        catalog: Catalog | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self._driver = driver
        self._database = database
        self._uri = uri
        self._catalog = catalog or default_catalog()
        self._bookmarks = neo4j.GraphDatabase.bookmark_manager()
        self._retry = retry or RetryPolicy()
        self._counts_lock = threading.Lock()
        self._units = 0
        self._attempts = 0
        self._retries: Counter[str] = Counter()
        self._statements: Counter[str] = Counter()
        self._observer: Callable[[UnitTiming], None] | None = None

    @property
    def database(self) -> str:
        return self._database

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    def retry_counts(self) -> RetryCounts:
        """Units of work run, their attempts, and the transient errors that caused retries."""
        with self._counts_lock:
            return RetryCounts(self._units, self._attempts, dict(self._retries))

    def statement_counts(self) -> dict[str, int]:
        """How many times each catalog statement ran (attempts included), by name: what a
        piece of work really sent to the database (benchmarks check the plan of each)."""
        with self._counts_lock:
            return dict(self._statements)

    def observe(self, observer: Callable[[UnitTiming], None] | None) -> None:
        """Call ``observer`` after every unit of work with its timings (``db.timing``); ``None``
        stops it."""
        self._observer = observer

    def _ran(self, name: str) -> None:
        with self._counts_lock:
            self._statements[name] += 1

    def explain(self, name: str, /, **params: Any) -> dict[str, Any]:
        """The plan Neo4j would run a catalog statement with (``EXPLAIN``: nothing runs), as the
        driver reports it (``operatorType``, ``args``, ``children``); ``params`` are optional."""
        query = self._catalog[name]

        def work(tx: neo4j.ManagedTransaction) -> dict[str, Any]:
            summary = tx.run("EXPLAIN " + query.text, params).consume()
            return dict(summary.plan or {})

        session = self._driver.session(
            database=self._database,
            bookmark_manager=self._bookmarks,
            max_transaction_retry_time=0.0,
        )
        with (
            translate_driver_errors(self._uri, f"EXPLAIN {query.name}", database=self._database),
            session,
        ):
            return session.execute_write(work)

    def _count(self, *, units: int = 0, attempts: int = 0, code: str | None = None) -> None:
        with self._counts_lock:
            self._units += units
            self._attempts += attempts
            if code is not None:
                self._retries[code] += 1

    def _run(self, mode: neo4j.RoutingControl, what: str, work: Callable[[_Tx], T]) -> T:
        """Run one unit of work in a managed transaction, retrying transient failures here (the
        driver's own retry is off) so that every attempt and every retry's cause is counted."""

        observer, clock = self._observer, UnitClock() if self._observer else None
        first = [True]

        def attempt(tx: neo4j.ManagedTransaction) -> T:
            # The unit counts with its first attempt, in one step: no reading of the counts
            # shows a unit without its attempt (a unit that never reached the database ran none).
            self._count(units=int(first[0]), attempts=1)
            first[0] = False
            if clock is None:
                return work(_Tx(tx, self._catalog, self._ran))
            return clock.attempt(lambda: work(_Tx(tx, self._catalog, self._ran, clock)))

        retry = Retrying(self._retry)
        with (
            translate_driver_errors(self._uri, what, database=self._database),
            self._driver.session(
                database=self._database,
                bookmark_manager=self._bookmarks,
                max_transaction_retry_time=0.0,
            ) as session,
        ):
            run = (
                session.execute_read if mode == neo4j.RoutingControl.READ else session.execute_write
            )
            while True:
                try:
                    done = run(attempt)
                    if observer is not None and clock is not None:
                        observer(clock.unit(what))
                    return done
                except (neo4j_errors.Neo4jError, neo4j_errors.DriverError) as err:
                    if not err.is_retryable():
                        raise
                    delay = retry.next_delay(err)
                    if delay is None:
                        if is_unavailable(err):
                            raise DatabaseUnavailableError(
                                f"Neo4j at {self._uri} did not answer for "
                                f"{retry.unavailable_for():.1f}s ({one_line(err)}); the call "
                                "was not done; try again when the database is back (check "
                                "NEO4J_URI, or `kg-context neo4j status` for the local server)"
                            ) from err
                        raise
                    code = err.code if isinstance(err, neo4j_errors.Neo4jError) else None
                    self._count(code=code or type(err).__name__)
                    time.sleep(delay)

    def _statement(
        self, name: str, params: dict[str, Any], mode: neo4j.RoutingControl
    ) -> list[Record]:
        query = self._catalog[name]
        bound = query.bind(params)

        def work(tx: _Tx) -> list[Record]:
            return tx.run_bound(query, bound)

        return self._run(mode, query.name, work)

    def read(self, name: str, /, **params: Any) -> list[Record]:
        return self._statement(name, params, neo4j.RoutingControl.READ)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        return self._statement(name, params, neo4j.RoutingControl.WRITE)

    def read_tx(self, work: Callable[[Transaction], T]) -> T:
        return self._run(neo4j.RoutingControl.READ, "read transaction", work)

    def write_tx(self, work: Callable[[Transaction], T]) -> T:
        return self._run(neo4j.RoutingControl.WRITE, "write transaction", work)
