"""The broadcast bus: every subscriber gets the same context, concurrently, each with a timeout.

Each subscriber runs in its own daemon thread (its own loop slot). The bus waits for each one
until that subscriber's own deadline and then reports it as ``timeout``; it never joins a thread
that has not finished, so a hung subscriber costs the bus at most its timeout and cannot keep the
process alive at exit. A late result of an abandoned subscriber is discarded. Subscribers return
proposals only; they never receive a database handle from the bus.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from kg_context.cycle.models import (
    BroadcastContext,
    BusProposal,
    SubscriberReport,
    SubscriberStatus,
)
from kg_context.errors import ConfigurationError

__all__ = ["BroadcastBus", "BusSubscriber", "SubscriberHandler"]

log = logging.getLogger(__name__)

SubscriberHandler = Callable[[BroadcastContext], Iterable[BusProposal]]
# A subscriber's name is its writer id at the gate, so it follows the id pattern.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$")


@dataclass(frozen=True, slots=True)
class BusSubscriber:
    """A named handler; ``timeout_s`` overrides the bus default for this one."""

    name: str
    handler: SubscriberHandler
    timeout_s: float | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ConfigurationError(f"subscriber name {self.name!r} is not a usable writer id")
        if self.timeout_s is not None and not self.timeout_s > 0:
            raise ConfigurationError(f"subscriber {self.name!r}: the timeout must be positive")


@dataclass(slots=True)
class _Slot:
    subscriber: BusSubscriber
    done: threading.Event = field(default_factory=threading.Event)
    proposals: tuple[BusProposal, ...] = ()
    error: str | None = None
    elapsed_s: float = 0.0


def _run(slot: _Slot, context: BroadcastContext) -> None:
    started = time.monotonic()
    try:
        returned = slot.subscriber.handler(context)
        proposals = tuple(returned)
        wrong = [type(p).__name__ for p in proposals if not isinstance(p, BusProposal)]
        if wrong:
            slot.error = f"returned {', '.join(sorted(set(wrong)))} instead of BusProposal"
        else:
            slot.proposals = proposals
    except Exception as err:  # noqa: BLE001 - a subscriber's failure is its report, not the bus's
        slot.error = f"{type(err).__name__}: {err}"
        log.warning("subscriber %s failed: %s", slot.subscriber.name, slot.error)
    finally:
        slot.elapsed_s = time.monotonic() - started
        slot.done.set()


class BroadcastBus:
    """Broadcasts one context to every subscriber and collects one report from each."""

    def __init__(self, subscribers: Sequence[BusSubscriber], *, default_timeout_s: float) -> None:
        if not default_timeout_s > 0:
            raise ConfigurationError("the subscriber timeout must be positive")
        names = [s.name for s in subscribers]
        if len(set(names)) != len(names):
            raise ConfigurationError(f"subscriber names repeat: {sorted(names)}")
        self.subscribers = tuple(subscribers)
        self.default_timeout_s = default_timeout_s

    def timeout_of(self, subscriber: BusSubscriber) -> float:
        return subscriber.timeout_s if subscriber.timeout_s is not None else self.default_timeout_s

    def broadcast(self, context: BroadcastContext) -> tuple[SubscriberReport, ...]:
        """Reports in subscriber order; returns once each subscriber finished or timed out."""
        slots = [_Slot(s) for s in self.subscribers]
        started = time.monotonic()
        for slot in slots:
            threading.Thread(
                target=_run,
                args=(slot, context),
                name=f"kg-context-bus-{slot.subscriber.name}",
                daemon=True,
            ).start()
        reports: list[SubscriberReport] = []
        for slot in slots:
            deadline = started + self.timeout_of(slot.subscriber)
            finished = slot.done.wait(max(0.0, deadline - time.monotonic()))
            reports.append(self._report(slot, context.broadcast_id, finished))
        return tuple(reports)

    def _report(self, slot: _Slot, broadcast_id: str, finished: bool) -> SubscriberReport:
        name = slot.subscriber.name
        if not finished:
            log.warning(
                "subscriber %s timed out after %.3fs; abandoned",
                name,
                self.timeout_of(slot.subscriber),
            )
            return SubscriberReport(
                subscriber=name,
                broadcast_id=broadcast_id,
                status=SubscriberStatus.TIMEOUT,
                error=f"no answer within {self.timeout_of(slot.subscriber)}s",
            )
        if slot.error is not None:
            return SubscriberReport(
                subscriber=name,
                broadcast_id=broadcast_id,
                status=SubscriberStatus.ERROR,
                error=slot.error,
                elapsed_s=slot.elapsed_s,
            )
        return SubscriberReport(
            subscriber=name,
            broadcast_id=broadcast_id,
            status=SubscriberStatus.OK,
            proposals=slot.proposals,
            elapsed_s=slot.elapsed_s,
        )
