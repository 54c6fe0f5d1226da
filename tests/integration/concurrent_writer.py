"""A writer process for the concurrency test: commits N explicit sets to one boundary.

Run as ``python -m tests.integration.concurrent_writer BOUNDARY PREFIX N``; the database comes
from KG_TEST_URI / KG_TEST_USER / KG_TEST_PASSWORD / KG_TEST_DATABASE. Prints one line per
decision: ``<proposal id> <outcome> <seq>``.
"""

from __future__ import annotations

import os
import sys

from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine


def main() -> None:
    boundary_id, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    target = Target(
        "env",
        os.environ["KG_TEST_URI"],
        os.environ["KG_TEST_USER"],
        os.environ["KG_TEST_PASSWORD"],
        os.environ["KG_TEST_DATABASE"],
    )
    with Engine(open_driver(target), target) as engine:
        team = engine.boundary(boundary_id)
        for i in range(count):
            pid = f"{boundary_id}-{prefix}-{i}"
            decision = team.commit(
                {
                    "id": pid,
                    "boundary_id": boundary_id,
                    "writer_id": f"writer-{prefix}",
                    "writer_kind": "agent",
                    "set_id": f"{pid}-set",
                    "entries": [{"class": "decision", "key": f"{prefix}-{i}", "body": f"n{i}"}],
                }
            )
            print(pid, decision.outcome, decision.seq, flush=True)


if __name__ == "__main__":
    main()
