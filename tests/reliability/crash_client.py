"""Processes for the crash tests: clients that keep going while the server is killed under them.

    python -m tests.reliability.crash_client writer BOUNDARY PREFIX N    a commit stream
    python -m tests.reliability.crash_client upkeep BOUNDARY STOPFILE     czar + invalidations
    python -m tests.reliability.crash_client submit BOUNDARY PREFIX N     N pending proposals
    python -m tests.reliability.crash_client gate BOUNDARY                close everything pending
    python -m tests.reliability.crash_client gate-held BOUNDARY           ... and stop mid-commit

The database comes from KG_TEST_URI / KG_TEST_USER / KG_TEST_PASSWORD. A writer commits N
proposals, each one set of two entries with edges (a decision that supersedes the one of its key
three proposals earlier, and a fact DERIVED_FROM and REQUIRES that decision); when the database
does not answer it submits the SAME proposal again (same id, same content) until it is decided,
and prints ``<unix time> <proposal id> <outcome> <seq> <attempts>`` per proposal. ``upkeep`` runs
the czar and challenges an entry, over and over, retrying the same way, until STOPFILE exists,
and prints ``czar <runs>`` and ``challenges <n>``. ``gate`` prints ``closing`` right before the
one close transaction, then ``closed <n>``. ``gate-held`` does the same, but once the transaction
has run its write (``gate/write_plan``, every row of the batch) it prints ``written`` and waits,
inside the transaction, before the commit: the test kills it there, wherever the machine's speed
would have put a timed kill.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from kg_context.db import executor
from kg_context.db.connection import Target
from kg_context.engine import Engine
from kg_context.errors import DatabaseError, StateError
from kg_context.settings import DatabaseSettings, EngineSettings

T = TypeVar("T")
GIVE_UP_S = 300.0


def _target() -> Target:
    env = os.environ
    return Target("env", env["KG_TEST_URI"], env["KG_TEST_USER"], env["KG_TEST_PASSWORD"], "neo4j")


def _connect() -> Engine:
    settings = EngineSettings(database=DatabaseSettings(unavailable_timeout_s=1.0))
    deadline = time.monotonic() + GIVE_UP_S
    while True:
        try:
            return Engine.connect(_target(), settings=settings, check_schema=False)
        except DatabaseError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def retrying(call: Callable[[], T]) -> tuple[T, int]:
    """Call until the database answers (the same call: the gate makes it idempotent)."""
    deadline = time.monotonic() + GIVE_UP_S
    attempts = 0
    while True:
        attempts += 1
        try:
            return call(), attempts
        except DatabaseError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def proposal(boundary_id: str, prefix: str, i: int, *, chained: bool = True) -> dict[str, Any]:
    """Proposal ``i`` of a stream: chained (its decision supersedes the one of its key three
    proposals earlier, on a declared target) or standing alone (for one batch of many)."""
    decision = f"{prefix}-{i}-d"
    key = f"{prefix}-k{i % 3}" if chained else f"{prefix}-k{i}"
    entry: dict[str, Any] = {"id": decision, "class": "decision", "key": key}
    entry["body"] = f"decision {i} of {prefix}"
    if chained and i >= 3:
        entry["supersedes"] = [{"entry_id": f"{prefix}-{i - 3}-d", "reason": "newer"}]
    fact = {
        "id": f"{prefix}-{i}-f",
        "class": "fact",
        "key": f"{prefix}-f{i}",
        "body": f"fact {i} of {prefix}",
        "derived_from": [{"entry_id": decision, "essential": True}],
        "requires": [{"entry_id": decision, "policy": "hard"}],
    }
    return {
        "id": f"{prefix}-{i}",
        "boundary_id": boundary_id,
        "writer_id": f"writer-{prefix}",
        "writer_kind": "agent",
        "set_id": f"{prefix}-{i}-set",
        "targets": [key] if chained else [],
        "entries": [entry, fact],
    }


def _writer(engine: Engine, boundary_id: str, prefix: str, count: int) -> None:
    boundary = engine.boundary(boundary_id, create=False)
    for i in range(count):
        decision, attempts = retrying(lambda i=i: boundary.commit(proposal(boundary_id, prefix, i)))
        print(time.time(), f"{prefix}-{i}", decision.outcome, decision.seq, attempts, flush=True)


def _upkeep(engine: Engine, boundary_id: str, stop_file: Path) -> None:
    boundary = engine.boundary(boundary_id, create=False)
    runs = challenges = 0
    while not stop_file.exists():
        retrying(boundary.run_czar)
        runs += 1
        entries = retrying(lambda: boundary.window().entries)[0]
        facts = [e.id for e in entries if e.id.endswith("-f") and e.status == "live"]
        if facts:
            # StateError "already challenged": the attempt the kill cut short did commit (an
            # invalidation is derived from the record as it stands, so a retry after its commit
            # finds nothing left to move, and says so)
            with contextlib.suppress(StateError):
                retrying(
                    partial(boundary.challenge, facts[0], reason="crash", writer_id="operator")
                )
            challenges += 1
        time.sleep(0.2)
    print("czar", runs, flush=True)
    print("challenges", challenges, flush=True)


def _hold_after_the_write() -> None:
    """Once ``gate/write_plan`` has run in a transaction, print ``written`` and wait there (the
    transaction open, its commit not sent) until the process is killed."""
    send_bound = executor._Tx._send_bound

    def held(tx: Any, query: Any, params: dict[str, Any]) -> Callable[[], list[Any]]:
        fetch = send_bound(tx, query, params)
        if query.name != "gate/write_plan":
            return fetch

        def fetch_and_hold() -> list[Any]:
            fetch()  # the write ran: every row of the batch is in the open transaction
            print("written", flush=True)
            time.sleep(GIVE_UP_S)
            raise SystemExit("gate-held: not killed")

        return fetch_and_hold

    executor._Tx._send_bound = held  # type: ignore[method-assign]


def main() -> None:
    role, boundary_id = sys.argv[1], sys.argv[2]
    with _connect() as engine:
        if role == "writer":
            _writer(engine, boundary_id, sys.argv[3], int(sys.argv[4]))
        elif role == "upkeep":
            _upkeep(engine, boundary_id, Path(sys.argv[3]))
        elif role == "submit":
            boundary = engine.boundary(boundary_id, create=False)
            count = int(sys.argv[4])
            prefix = sys.argv[3]
            boundary.submit([proposal(boundary_id, prefix, i, chained=False) for i in range(count)])
            print("submitted", count, flush=True)
        elif role in ("gate", "gate-held"):
            if role == "gate-held":
                _hold_after_the_write()
            boundary = engine.boundary(boundary_id, create=False)
            print("closing", flush=True)
            print("closed", len(boundary.close()), flush=True)
        else:
            raise SystemExit(f"unknown role {role}")


if __name__ == "__main__":
    main()
