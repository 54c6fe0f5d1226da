"""How the executor retries a unit of work (``RetryPolicy``: transient conflicts and a database
that does not answer, bounded apart), the retry state of one unit (``Retrying``), and what was
retried (``RetryCounts``)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from neo4j import exceptions as neo4j_errors

from kg_context.settings import DatabaseSettings

__all__ = ["DEADLOCK", "RetryCounts", "RetryPolicy", "Retrying", "is_unavailable"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How long a unit of work is retried, by the kind of failure.

    Transient transaction errors (a deadlock, a lock timeout: the database answered) are
    retried until ``max_retry_time_s`` has passed since the first failure, with delays from
    ``initial_delay_s`` multiplied by ``multiplier`` (the driver's defaults). A database that
    does not answer is retried until ``unavailable_timeout_s`` has passed since it first did
    not, with delays from ``unavailable_delay_s`` doubling up to ``unavailable_max_delay_s``;
    then the call raises ``DatabaseUnavailableError``.
    """

    max_retry_time_s: float = 30.0
    initial_delay_s: float = 1.0
    multiplier: float = 2.0
    jitter: float = 0.2
    unavailable_timeout_s: float = 3.0
    unavailable_delay_s: float = 0.2
    unavailable_max_delay_s: float = 1.0

    @classmethod
    def from_settings(cls, settings: DatabaseSettings) -> RetryPolicy:
        return cls(
            max_retry_time_s=settings.max_retry_time_s,
            unavailable_timeout_s=settings.unavailable_timeout_s,
        )

    def delays(self) -> Iterator[float]:
        delay = self.initial_delay_s
        while True:
            yield delay * (1 + random.uniform(-self.jitter, self.jitter))
            delay *= self.multiplier

    def unavailable_delays(self) -> Iterator[float]:
        delay = self.unavailable_delay_s
        while True:
            yield delay * (1 + random.uniform(-self.jitter, self.jitter))
            delay = min(delay * 2, self.unavailable_max_delay_s)


# Server codes that mean "the database is not there (yet)", not "this transaction conflicted".
_UNAVAILABLE_CODES = ("Neo.TransientError.General.DatabaseUnavailable",)


def is_unavailable(error: Exception) -> bool:
    """Whether a driver error means the database does not answer (as opposed to a transient
    conflict of this transaction): bounded by ``RetryPolicy.unavailable_timeout_s``."""
    if isinstance(error, neo4j_errors.IncompleteCommit):
        return False
    if isinstance(error, neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired):
        return True
    code = getattr(error, "code", None)
    return isinstance(code, str) and code.startswith(_UNAVAILABLE_CODES)


@dataclass(frozen=True, slots=True)
class RetryCounts:
    """What an executor has run so far: units of work, their attempts (a retry is one more
    attempt), and the transient errors that caused a retry, by Neo4j code (driver-side
    failures such as a lost connection count under their class name)."""

    units: int = 0
    attempts: int = 0
    retries: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Every retry, whatever its cause."""
        return sum(self.retries.values())

    def of(self, code: str) -> int:
        """The retries one code caused (0 when it never did)."""
        return self.retries.get(code, 0)


# The Neo4j code of a deadlock the server broke by failing one transaction (retried here).
DEADLOCK = "Neo.TransientError.Transaction.DeadlockDetected"


class Retrying:
    """The retry state of one unit of work: which bound applies to a failure, and when it ran
    out. The two kinds of failure are timed apart: a database that stops answering during a
    burst of deadlocks gets its own, shorter bound."""

    def __init__(self, policy: RetryPolicy) -> None:
        self._policy = policy
        self._transient = policy.delays()
        self._unavailable = policy.unavailable_delays()
        self._first_transient: float | None = None
        self._first_unavailable: float | None = None

    def unavailable_for(self) -> float:
        if self._first_unavailable is None:
            return 0.0
        return time.monotonic() - self._first_unavailable

    def next_delay(self, error: Exception) -> float | None:
        """How long to wait before the next attempt, or ``None``: give up now."""
        now = time.monotonic()
        if is_unavailable(error):
            if self._first_unavailable is None:
                self._first_unavailable = now
            left = self._first_unavailable + self._policy.unavailable_timeout_s - now
            return min(next(self._unavailable), left) if left > 0 else None
        self._first_unavailable = None  # it answered again: a later outage is timed anew
        if self._first_transient is None:
            self._first_transient = now
        if now - self._first_transient > self._policy.max_retry_time_s:
            return None
        return next(self._transient)
