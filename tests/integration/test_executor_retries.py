"""The executor counts transaction attempts and the transient errors that caused retries, by
Neo4j code: a real deadlock between two transactions on the real server is retried and counted."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import DEADLOCK, Neo4jExecutor, RetryPolicy, Transaction

FIXTURES = Path(__file__).parent / "executor_fixtures"


def test_a_real_deadlock_is_retried_and_counted_by_code(neo4j_target: Target) -> None:
    first, second = f"lock-{uuid.uuid4().hex}", f"lock-{uuid.uuid4().hex}"
    with open_driver(neo4j_target) as driver:
        executor = Neo4jExecutor(
            driver,
            database=neo4j_target.database,
            uri=neo4j_target.uri,
            catalog=Catalog(FIXTURES),
            retry=RetryPolicy(initial_delay_s=0.01),
        )
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
