"""Process-wide health of the attention loop: are the reads resolving what the writes wrote?

Counters of broadcasts, reads, hits and misses, and the engine-mismatch guard that warns (or
raises under ``KG_CONTEXT_GWT_STRICT=1``) when reads never resolve what this process wrote.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from kg_context.errors import ConfigurationError

__all__ = [
    "AttentionTelemetry",
    "reset_workspace_attention_telemetry",
    "workspace_attention_telemetry",
]

log = logging.getLogger("kg_context.attention")


@dataclass(frozen=True, slots=True)
class AttentionTelemetry:
    """A snapshot of the counters."""

    waves: int
    proposals_written: int
    broadcasts_written: int
    attention_reads: int
    attention_hits: int
    attention_misses: int
    misses_after_own_broadcast: int
    suspected_engine_mismatch: bool

    def as_dict(self) -> dict[str, int | bool]:
        return asdict(self)


class _Counters:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self.waves = 0
        self.proposals_written = 0
        self.broadcasts_written = 0
        self.reads = 0
        self.hits = 0
        self.misses = 0
        self.misses_after_own = 0
        self.warned = False
        # (boundary id or None, specialist id) of every winner this process recorded
        self.broadcast_specialists: set[tuple[str | None, str]] = set()

    def reset(self) -> None:
        with self._lock:
            self._reset()

    def _suspected(self) -> bool:
        never_hit = self.broadcasts_written > 0 and self.reads > 0 and self.hits == 0
        return never_hit or self.misses_after_own > 0

    def snapshot(self) -> AttentionTelemetry:
        with self._lock:
            return AttentionTelemetry(
                waves=self.waves,
                proposals_written=self.proposals_written,
                broadcasts_written=self.broadcasts_written,
                attention_reads=self.reads,
                attention_hits=self.hits,
                attention_misses=self.misses,
                misses_after_own_broadcast=self.misses_after_own,
                suspected_engine_mismatch=self._suspected(),
            )

    def wrote(self, proposals: int, winners: Iterable[str], boundary_id: str | None) -> None:
        with self._lock:
            self.waves += 1
            self.proposals_written += proposals
            for specialist_id in winners:
                self.broadcasts_written += 1
                self.broadcast_specialists.add((boundary_id, specialist_id))

    def _own(self, specialist_id: str, boundary_id: str | None) -> bool:
        """Whether this process recorded a win the read should find: in its boundary, or (a
        global read, ``boundary_id`` None) anywhere."""
        if boundary_id is not None:
            return (boundary_id, specialist_id) in self.broadcast_specialists
        return any(sid == specialist_id for _, sid in self.broadcast_specialists)

    def read(
        self,
        specialist_id: str,
        *,
        hit: bool,
        mismatch_misses: int,
        strict: bool,
        boundary_id: str | None = None,
    ) -> None:
        """Count one read (scoped to ``boundary_id``; None: global); warn once, or raise in
        strict mode, when the guard fires."""
        with self._lock:
            self.reads += 1
            if hit:
                self.hits += 1
                return
            self.misses += 1
            own = self._own(specialist_id, boundary_id)
            self.misses_after_own += own
            never_hit = self.broadcasts_written > 0 and self.hits == 0
            fires = own or (never_hit and self.misses >= mismatch_misses)
            if not fires:
                return
            message = (
                f"attention read for {specialist_id!r} resolved nothing"
                + (" although this process broadcast a winner for it" if own else "")
                + f" ({self.broadcasts_written} broadcasts written, {self.hits} of "
                f"{self.reads} reads resolved): the write side and the read side of workspace "
                "attention look like different engines or databases; construct both from the "
                "same Engine"
            )
            first = not self.warned
            self.warned = True
        if strict:
            raise ConfigurationError(message)
        if first:
            log.warning(message)
            warnings.warn(message, RuntimeWarning, stacklevel=3)


_counters = _Counters()


def workspace_attention_telemetry() -> AttentionTelemetry:
    """The process-wide counters of the attention loop, now."""
    return _counters.snapshot()


def reset_workspace_attention_telemetry() -> None:
    """Zero the counters and re-arm the one-time warning."""
    _counters.reset()


def counters() -> _Counters:
    """The live counters (for the workspace; not public API)."""
    return _counters
