"""The executor against the real server: it counts transaction attempts and the transient errors
that caused retries, by Neo4j code (a real deadlock between two transactions is retried and
counted); and ``Transaction.send``: a statement sent ahead runs on the server while the caller
goes on, the statements sent after it in the same transaction see what it wrote, its rows are
read when the caller asks, and its timing counts the time the caller waited on it."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import DEADLOCK, Neo4jExecutor, RetryPolicy, Transaction
from kg_context.db.timing import UnitTiming

FIXTURES = Path(__file__).parent / "executor_fixtures"


def _executor(driver: Any, target: Target, **options: Any) -> Neo4jExecutor:
    """An executor over the test fixtures' statements."""
    return Neo4jExecutor(
        driver, database=target.database, uri=target.uri, catalog=Catalog(FIXTURES), **options
    )


def test_a_real_deadlock_is_retried_and_counted_by_code(neo4j_target: Target) -> None:
    first, second = f"lock-{uuid.uuid4().hex}", f"lock-{uuid.uuid4().hex}"
    with open_driver(neo4j_target) as driver:
        executor = _executor(driver, neo4j_target, retry=RetryPolicy(initial_delay_s=0.01))
        executor.write("lock/touch", id=first)
        executor.write("lock/touch", id=second)
        before = executor.retry_counts()
        both_hold_one = threading.Barrier(2, timeout=30)
        failures: list[BaseException] = []

        def lock_in_order(a: str, b: str) -> None:
            attempts = 0

            def work(tx: Transaction) -> None:
                nonlocal attempts
                attempts += 1
                tx.run("lock/touch", id=a)
                if attempts == 1:  # only the first attempts meet: then each wants the other's
                    both_hold_one.wait()
                tx.run("lock/touch", id=b)

            try:
                executor.write_tx(work)
            except BaseException as err:  # noqa: BLE001 - collected and asserted below
                failures.append(err)

        threads = [
            threading.Thread(target=lock_in_order, args=(first, second)),
            threading.Thread(target=lock_in_order, args=(second, first)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert failures == []
        after = executor.retry_counts()

    assert after.units - before.units == 2
    assert after.of(DEADLOCK) - before.of(DEADLOCK) >= 1  # the server broke the cycle once
    assert after.total - before.total == after.of(DEADLOCK) - before.of(DEADLOCK)
    # every retry is one more attempt of the same unit of work
    assert after.attempts - before.attempts == 2 + (after.total - before.total)


def test_a_clean_run_counts_one_attempt_per_unit_and_no_retry(engine: Any) -> None:
    before = engine.executor.retry_counts()
    engine.executor.read("admin/ping")
    engine.executor.read_tx(lambda tx: tx.run("admin/ping"))
    after = engine.executor.retry_counts()
    assert after.units - before.units == 2
    assert after.attempts - before.attempts == 2
    assert after.total == before.total


def test_sent_statements_run_in_order_and_their_rows_are_read_later(neo4j_target: Target) -> None:
    node = f"send-{uuid.uuid4().hex}"
    seen: list[UnitTiming] = []
    with open_driver(neo4j_target) as driver:
        executor = _executor(driver, neo4j_target)
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
