"""``Transaction.send``: a statement sent ahead runs on the server while the caller goes on; the
statements sent after it in the same transaction see what it wrote; its rows are read when the
caller asks; and its timing counts the time the caller waited on it, not the caller's work."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import Neo4jExecutor, Transaction
from kg_context.db.timing import UnitTiming

FIXTURES = Path(__file__).parent / "executor_fixtures"


def test_sent_statements_run_in_order_and_their_rows_are_read_later(neo4j_target: Target) -> None:
    node = f"send-{uuid.uuid4().hex}"
    seen: list[UnitTiming] = []
    with open_driver(neo4j_target) as driver:
        executor = Neo4jExecutor(
            driver,
            database=neo4j_target.database,
            uri=neo4j_target.uri,
            catalog=Catalog(FIXTURES),
        )
        executor.observe(seen.append)
        pause = 0.5

        def work(tx: Transaction) -> tuple[list[str], list[int]]:
            first = tx.send("lock/touch", id=node)
            second = tx.send("lock/touch", id=node)
            time.sleep(pause)  # the caller's own work, while the server runs both
            touched = tx.send("lock/touched", id=node)
            return [r["id"] for r in first() + second()], [r["touched"] for r in touched()]

        ids, touched = executor.write_tx(work)
    assert ids == [node, node]
    assert touched == [2]  # the third statement saw both writes before it
    (unit,) = seen
    assert [s.name for s in unit.statements] == ["lock/touch", "lock/touch", "lock/touched"]
    waited = sum(s.wall_s for s in unit.statements)
    assert waited + pause <= unit.work_s  # the caller's pause is not the statements' time
