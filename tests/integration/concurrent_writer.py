"""A process for the concurrency tests: a writer that commits N explicit sets to one boundary, or
a czar that compacts the boundary until told to stop.

    python -m tests.integration.concurrent_writer BOUNDARY PREFIX N      (a writer)
    python -m tests.integration.concurrent_writer BOUNDARY czar STOPFILE (the czar)

The database comes from KG_TEST_URI / KG_TEST_USER / KG_TEST_PASSWORD / KG_TEST_DATABASE. A
writer prints one line per decision, ``<proposal id> <outcome> <seq>``; every second set holds a
fact nothing requires, so the czar has unreachable entries to retire. The czar runs until
STOPFILE exists, then once more, and prints ``czar <runs> <sets committed>``. Both end with one
line ``retries <json>``: the executor's transaction attempts and the transient errors that
caused retries, by Neo4j code.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine


def _target() -> Target:
    return Target(
        "env",
        os.environ["KG_TEST_URI"],
        os.environ["KG_TEST_USER"],
        os.environ["KG_TEST_PASSWORD"],
        os.environ["KG_TEST_DATABASE"],
    )


def _write(engine: Engine, boundary_id: str, prefix: str, count: int) -> None:
    boundary = engine.boundary(boundary_id)
    for i in range(count):
        pid = f"{boundary_id}-{prefix}-{i}"
        entry = (
            {"class": "decision", "key": f"{prefix}-{i}", "body": f"n{i}"}
            if i % 2 == 0
            else {
                "class": "fact",
                "key": f"{prefix}-{i}",
                "body": f"n{i}",
                "attributes": {"source": "test"},
            }
        )
        decision = boundary.commit(
            {
                "id": pid,
                "boundary_id": boundary_id,
                "writer_id": f"writer-{prefix}",
                "writer_kind": "agent",
                "set_id": f"{pid}-set",
                "entries": [entry],
            }
        )
        print(pid, decision.outcome, decision.seq, flush=True)


def _czar(engine: Engine, boundary_id: str, stop_file: Path) -> None:
    boundary = engine.boundary(boundary_id, create=False)
    runs = committed = 0
    while True:
        last = stop_file.exists()
        report = boundary.run_czar()
        runs += 1
        committed += sum(1 for d in report.decisions if d.outcome == "commit")
        if last:
            break
        time.sleep(0.05)
    print("czar", runs, committed, flush=True)


def main() -> None:
    boundary_id, role, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    target = _target()
    with Engine(open_driver(target), target) as engine:
        if role == "czar":
            _czar(engine, boundary_id, Path(arg))
        else:
            _write(engine, boundary_id, role, int(arg))
        counts = engine.executor.retry_counts()
        print(
            "retries",
            json.dumps({"units": counts.units, "attempts": counts.attempts, **counts.retries}),
            flush=True,
        )


if __name__ == "__main__":
    main()
