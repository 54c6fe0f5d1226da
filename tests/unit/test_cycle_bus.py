"""The broadcast bus: one shared context, concurrent subscribers, per-subscriber timeouts."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator

import pytest

from kg_context.cycle import (
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    SubscriberStatus,
)
from kg_context.errors import ConfigurationError

HUNG_SLEEP_S = 30.0


def context() -> BroadcastContext:
    return BroadcastContext(
        broadcast_id="b1",
        cycle=1,
        items=(),
        omitted_ids=(),
        tokens=0,
        token_budget=10,
        answer_available=False,
        task={"q": "x"},
    )


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Lets an abandoned subscriber thread finish when the test ends."""
    event = threading.Event()
    yield event
    event.set()


def test_every_subscriber_gets_the_same_context_object() -> None:
    seen: list[BroadcastContext] = []
    lock = threading.Lock()

    def record(ctx: BroadcastContext) -> Iterable[BusProposal]:
        with lock:
            seen.append(ctx)
        return [BusProposal(kind="ask_followup", key=f"k{len(seen)}", priority=0.5)]

    bus = BroadcastBus([BusSubscriber(f"s{i}", record) for i in range(4)], default_timeout_s=5.0)
    ctx = context()
    reports = bus.broadcast(ctx)
    assert len(seen) == 4 and all(s is ctx for s in seen)
    assert [r.subscriber for r in reports] == ["s0", "s1", "s2", "s3"]
    assert all(r.status is SubscriberStatus.OK and len(r.proposals) == 1 for r in reports)
    assert all(r.broadcast_id == "b1" for r in reports)


def test_subscribers_run_concurrently() -> None:
    # Each waits for the other at a barrier: only passes if both run at the same time.
    barrier = threading.Barrier(2, timeout=5.0)

    def meet(ctx: BroadcastContext) -> Iterable[BusProposal]:
        barrier.wait()
        return []

    bus = BroadcastBus([BusSubscriber("a", meet), BusSubscriber("b", meet)], default_timeout_s=10.0)
    assert [r.status for r in bus.broadcast(context())] == [SubscriberStatus.OK] * 2


def test_a_hung_subscriber_times_out_without_delaying_the_others(
    release: threading.Event,
) -> None:
    hung_finished = threading.Event()
    slow_done = threading.Event()

    def hung(ctx: BroadcastContext) -> Iterable[BusProposal]:
        release.wait(HUNG_SLEEP_S)  # far beyond its timeout
        hung_finished.set()
        return [BusProposal(kind="ask_followup", key="late", priority=1.0)]

    def slow(ctx: BroadcastContext) -> Iterable[BusProposal]:
        time.sleep(0.3)  # longer than the hung subscriber's timeout, within its own
        slow_done.set()
        return [BusProposal(kind="query_memory", key="slow", priority=0.5)]

    def fast(ctx: BroadcastContext) -> Iterable[BusProposal]:
        return [BusProposal(kind="query_memory", key="fast", priority=0.5)]

    bus = BroadcastBus(
        [
            BusSubscriber("hung", hung, timeout_s=0.1),
            BusSubscriber("slow", slow, timeout_s=10.0),
            BusSubscriber("fast", fast),
        ],
        default_timeout_s=10.0,
    )
    started = time.monotonic()
    reports = bus.broadcast(context())
    elapsed = time.monotonic() - started
    # The bus came back before the hung subscriber ended, and with everyone else's answer.
    assert not hung_finished.is_set()
    assert slow_done.is_set()
    assert elapsed < HUNG_SLEEP_S / 2
    by_name = {r.subscriber: r for r in reports}
    assert by_name["hung"].status is SubscriberStatus.TIMEOUT
    assert by_name["hung"].proposals == () and by_name["hung"].elapsed_s is None
    assert "0.1s" in (by_name["hung"].error or "")
    assert by_name["slow"].status is SubscriberStatus.OK
    assert [p.key for p in by_name["slow"].proposals] == ["slow"]
    assert by_name["fast"].status is SubscriberStatus.OK
    # The abandoned thread's late answer never reaches the reports already returned.
    release.set()
    assert hung_finished.wait(5.0)
    assert by_name["hung"].proposals == ()


def test_bus_returns_after_the_longest_timeout_even_if_every_subscriber_hangs(
    release: threading.Event,
) -> None:
    def hung(ctx: BroadcastContext) -> Iterable[BusProposal]:
        release.wait(HUNG_SLEEP_S)
        return []

    bus = BroadcastBus(
        [BusSubscriber("a", hung, timeout_s=0.05), BusSubscriber("b", hung, timeout_s=0.15)],
        default_timeout_s=1.0,
    )
    started = time.monotonic()
    reports = bus.broadcast(context())
    assert time.monotonic() - started < HUNG_SLEEP_S / 2
    assert [r.status for r in reports] == [SubscriberStatus.TIMEOUT] * 2
    assert not release.is_set()


def test_errors_and_wrong_return_types_are_error_reports() -> None:
    def boom(ctx: BroadcastContext) -> Iterable[BusProposal]:
        raise RuntimeError("model down")

    def wrong(ctx: BroadcastContext) -> Iterable[BusProposal]:
        return [{"kind": "admit_fact"}]  # type: ignore[list-item]

    def not_iterable(ctx: BroadcastContext) -> Iterable[BusProposal]:
        return 42  # type: ignore[return-value]

    def ok(ctx: BroadcastContext) -> Iterable[BusProposal]:
        return ()

    bus = BroadcastBus(
        [
            BusSubscriber("boom", boom),
            BusSubscriber("wrong", wrong),
            BusSubscriber("nope", not_iterable),
            BusSubscriber("ok", ok),
        ],
        default_timeout_s=5.0,
    )
    reports = {r.subscriber: r for r in bus.broadcast(context())}
    assert reports["boom"].status is SubscriberStatus.ERROR
    assert reports["boom"].error == "RuntimeError: model down"
    assert reports["wrong"].status is SubscriberStatus.ERROR
    assert "dict instead of BusProposal" in (reports["wrong"].error or "")
    assert reports["nope"].status is SubscriberStatus.ERROR
    assert reports["ok"].status is SubscriberStatus.OK and reports["ok"].elapsed_s is not None


def test_bus_configuration_is_checked() -> None:
    def ok(ctx: BroadcastContext) -> Iterable[BusProposal]:
        return ()

    with pytest.raises(ConfigurationError, match="writer id"):
        BusSubscriber("has space", ok)
    with pytest.raises(ConfigurationError, match="positive"):
        BusSubscriber("a", ok, timeout_s=0)
    with pytest.raises(ConfigurationError, match="repeat"):
        BroadcastBus([BusSubscriber("a", ok), BusSubscriber("a", ok)], default_timeout_s=1.0)
    with pytest.raises(ConfigurationError, match="positive"):
        BroadcastBus([], default_timeout_s=0)
    assert BroadcastBus([], default_timeout_s=1.0).broadcast(context()) == ()
