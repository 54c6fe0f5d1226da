"""Outages, without a database: the executor's retry loop bounds unavailability apart from
transient transaction errors, the unavailable error keeps its cause, driver warnings stay in the
``logging`` tree, and a Bolt URI without a host is refused.

The driver here is a stand-in that raises what the real one raises when the server is down; the
real outage (a killed server, then restarted) is in tests/reliability/test_outages.py.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from neo4j import exceptions as neo4j_errors

from kg_context import errors
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import DEADLOCK, Neo4jExecutor, RetryPolicy, translate_driver_errors
from kg_context.settings import DatabaseSettings

REFUSED = (
    "Couldn't connect to 127.0.0.1:7687 (resolved to ('127.0.0.1:7687',)):\n"
    "Failed to establish connection to ResolvedIPv4Address(('127.0.0.1', 7687)) "
    "(reason [Errno 111] Connection refused)"
)


class _Session:
    def __init__(self, fail: Callable[[int], BaseException | None]) -> None:
        self.fail = fail
        self.calls = 0

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def _run(self, work: Callable[[Any], Any]) -> Any:
        self.calls += 1
        error = self.fail(self.calls)
        if error is not None:
            raise error
        return "done"

    execute_read = _run
    execute_write = _run


class _Driver:
    def __init__(self, fail: Callable[[int], BaseException | None]) -> None:
        self.session_ = _Session(fail)

    def session(self, **_: Any) -> _Session:
        return self.session_


def _executor(fail: Callable[[int], BaseException | None], **policy: float) -> Neo4jExecutor:
    return Neo4jExecutor(
        _Driver(fail),  # type: ignore[arg-type]
        database="neo4j",
        uri="bolt://127.0.0.1:7687",
        retry=RetryPolicy(**policy),
    )


def test_a_database_that_does_not_answer_raises_the_typed_error_within_its_own_bound() -> None:
    executor = _executor(
        lambda _n: neo4j_errors.ServiceUnavailable(REFUSED),
        unavailable_timeout_s=0.4,
        unavailable_delay_s=0.05,
        max_retry_time_s=60.0,  # the bound of transient errors is not the one that applies
    )
    started = time.monotonic()
    with pytest.raises(errors.DatabaseUnavailableError) as caught:
        executor.write_tx(lambda tx: None)
    waited = time.monotonic() - started
    assert 0.4 <= waited < 3.0
    message = str(caught.value)
    assert "Connection refused" in message  # the cause is kept, on one line
    assert "\n" not in message and "bolt://127.0.0.1:7687" in message
    counts = executor.retry_counts()
    assert counts.of("ServiceUnavailable") >= 2 and counts.attempts == 0  # never reached work


def test_a_transient_transaction_error_keeps_the_longer_bound_and_is_counted_by_code() -> None:
    deadlock = neo4j_errors.Neo4jError._hydrate_neo4j(code=DEADLOCK, message="cycle")
    executor = _executor(
        lambda n: deadlock if n < 4 else None,
        unavailable_timeout_s=0.01,  # far shorter than the retries below: must not apply
        initial_delay_s=0.02,
        max_retry_time_s=30.0,
    )
    assert executor.write_tx(lambda tx: None) == "done"
    assert executor.retry_counts().of(DEADLOCK) == 3


def test_the_database_coming_back_within_the_bound_is_not_an_error() -> None:
    executor = _executor(
        lambda n: neo4j_errors.ServiceUnavailable(REFUSED) if n < 3 else None,
        unavailable_timeout_s=5.0,
        unavailable_delay_s=0.01,
    )
    assert executor.read_tx(lambda tx: None) == "done"
    assert executor.retry_counts().of("ServiceUnavailable") == 2


def test_a_commit_whose_outcome_is_unknown_says_to_resubmit_the_same_ids() -> None:
    lost = neo4j_errors.IncompleteCommit("connection lost during commit")
    executor = _executor(lambda _n: lost, unavailable_timeout_s=5.0)
    with pytest.raises(errors.DatabaseUnavailableError, match="same proposal ids"):
        executor.write_tx(lambda tx: None)
    assert executor.retry_counts().total == 0  # never retried blindly


def test_the_unavailable_message_keeps_the_cause_on_one_line() -> None:
    with (
        pytest.raises(errors.DatabaseUnavailableError) as caught,
        translate_driver_errors("bolt://h:1"),
    ):
        raise neo4j_errors.ServiceUnavailable(REFUSED)
    assert "Connection refused" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_policy_comes_from_the_settings() -> None:
    settings = DatabaseSettings(unavailable_timeout_s=2.5, max_retry_time_s=12.0)
    policy = RetryPolicy.from_settings(settings)
    assert (policy.unavailable_timeout_s, policy.max_retry_time_s) == (2.5, 12.0)
    assert DatabaseSettings().unavailable_timeout_s < 10.0  # the default: well under 10 s


def test_driver_warnings_go_to_the_logging_tree_and_never_to_stderr(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    import kg_context.db  # noqa: F401 - importing the package installs the handler

    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("neo4j").handlers)
    with caplog.at_level(logging.WARNING, logger="neo4j"):
        logging.getLogger("neo4j.session").warning("Transaction failed and will be retried")
    assert "will be retried" in caplog.text  # in the tree, for whoever configures logging
    logging.getLogger("neo4j.pool").warning("another driver warning")
    assert capsys.readouterr().err == ""  # no last-resort handler printing to stderr


@pytest.mark.parametrize("uri", ["bolt://", "neo4j://", "bolt://:7687", "neo4j+s://"])
def test_a_bolt_uri_with_an_empty_host_is_an_error_naming_it(uri: str) -> None:
    with pytest.raises(errors.ConfigurationError, match="empty host"):
        open_driver(Target("env", uri, "neo4j", "pw", "neo4j"), verify=False)


def test_a_unit_counts_with_its_first_attempt_so_no_reading_shows_more_units_than_attempts() -> (
    None
):
    seen: list[tuple[int, int]] = []
    executor: Neo4jExecutor

    def before_the_work(n: int) -> BaseException | None:
        counts = executor.retry_counts()  # read while the session is opening, before any attempt
        seen.append((counts.units, counts.attempts))
        return neo4j_errors.ServiceUnavailable(REFUSED) if n < 2 else None

    executor = _executor(before_the_work, unavailable_timeout_s=5.0, unavailable_delay_s=0.01)
    assert executor.write_tx(lambda tx: None) == "done"
    assert all(units <= attempts for units, attempts in seen), seen
