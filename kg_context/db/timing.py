"""Where a unit of work's time goes, for an observer of the executor (``Neo4jExecutor.observe``):
each statement's client time and the server's own (from the result summary), the transaction
function's time, and the whole call's. Off unless an observer is set (benchmarks set one)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import neo4j

__all__ = ["StatementTiming", "UnitClock", "UnitTiming", "timed_send"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StatementTiming:
    """One statement: ``wall_s`` the time the client waited on it (sending it, then reading its
    records: a statement sent ahead runs on the server while the client works), and the server's
    times from its summary (``result_available_after``: to the first record;
    ``result_consumed_after``: the rest), in milliseconds."""

    name: str
    wall_s: float
    available_ms: int
    consumed_ms: int

    @property
    def server_s(self) -> float:
        return (self.available_ms + self.consumed_ms) / 1000


@dataclass(frozen=True, slots=True)
class UnitTiming:
    """One unit of work (a managed transaction, retries included): ``wall_s`` the whole call
    (session, BEGIN, the work, COMMIT), ``work_s`` inside the transaction function (its last
    attempt), its statements (of that attempt), and the thread that ran it."""

    what: str
    wall_s: float
    work_s: float
    statements: tuple[StatementTiming, ...]
    thread: str


@dataclass(slots=True)
class UnitClock:
    """The timings of one unit of work while it runs (``attempt`` wraps each attempt)."""

    started: float = field(default_factory=time.perf_counter)
    statements: list[StatementTiming] = field(default_factory=list)
    work_s: float = 0.0

    def attempt(self, work: Callable[[], T]) -> T:
        self.statements.clear()
        started = time.perf_counter()
        try:
            return work()
        finally:
            self.work_s = time.perf_counter() - started

    def unit(self, what: str) -> UnitTiming:
        wall = time.perf_counter() - self.started
        name = threading.current_thread().name
        return UnitTiming(what, wall, self.work_s, tuple(self.statements), name)


def timed_send(
    tx: neo4j.ManagedTransaction,
    name: str,
    text: str,
    params: dict[str, Any],
    timings: list[StatementTiming],
) -> Callable[[], list[neo4j.Record]]:
    """Send one statement; the function returned reads every record and notes its timings.
    Its wall time is the time the caller waited on it: sending it, and reading its records (not
    whatever the caller did in between while the server ran it)."""
    started = time.perf_counter()
    result = tx.run(text, params)
    sending = time.perf_counter() - started

    def rows() -> list[neo4j.Record]:
        reading = time.perf_counter()
        out = list(result)
        summary = result.consume()
        available, consumed = summary.result_available_after, summary.result_consumed_after
        waited = sending + time.perf_counter() - reading
        timings.append(StatementTiming(name, waited, available or 0, consumed or 0))
        return out

    return rows
