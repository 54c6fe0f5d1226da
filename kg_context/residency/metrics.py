"""Residency metrics of a boundary: retention ratio and resident tokens, first-class.

``committed_tokens`` (every token ever committed) and ``resident_tokens`` (tokens in the window)
are kept current on the boundary node by the gate, in the commit transaction of every set
(transitions included). The retention ratio is ``committed_tokens / resident_tokens``: how much
history the window does *not* carry. ``resident_tokens_recomputed`` sums the resident entries
again, as an audit of the running count. ``error_rates`` are the record's error rates
(``kg_context.record.observability.rates``: false retirements, false supersessions,
resurrections, at-risk outcomes, time to detection), so one ``stats`` call shows both, and
``czar`` says when the czar last ran (seq, time, trigger) and what it retired (last run, total).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from kg_context.db.executor import QueryExecutor
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.record.observability import ErrorRates, QueueFigures, queue_figures, rates
from kg_context.vocabulary import HaltStatus

__all__ = [
    "BoundaryGauge",
    "BoundaryStats",
    "CzarActivity",
    "Overview",
    "czar_activity",
    "overview",
    "stats",
]


@dataclass(frozen=True, slots=True)
class CzarActivity:
    """When the czar of a boundary last ran and what it retired (from its ``:CzarReport``
    nodes): the last run (``None`` fields when it never ran) and totals over every run."""

    runs: int
    retired_total: int
    window_out_total: int
    warnings: int
    last_seq: int | None
    last_ran_at: str | None
    last_trigger: str | None
    last_retired: int | None
    last_window_out: int | None
    last_warning: str | None


def czar_activity(boundary: Boundary) -> CzarActivity:
    """The czar's activity in ``boundary`` (one read over its reports)."""
    rows = boundary.executor.read("metrics/czar_activity", boundary_id=boundary.id)
    if not rows:
        raise StateError(f"no boundary {boundary.id}", boundary_id=boundary.id)
    r = rows[0]
    return CzarActivity(
        runs=int(r["runs"]),
        retired_total=int(r["retired_total"]),
        window_out_total=int(r["window_out_total"]),
        warnings=int(r["warnings"]),
        last_seq=r["last_seq"],
        last_ran_at=r["last_ran_at"],
        last_trigger=r["last_trigger"],
        last_retired=r["last_retired"],
        last_window_out=r["last_window_out"],
        last_warning=r["last_warning"],
    )


@dataclass(frozen=True, slots=True)
class BoundaryStats:
    boundary_id: str
    seq: int
    committed_tokens: int
    resident_tokens: int
    resident_tokens_recomputed: int
    resident_entries: int
    live_count: int
    requires_count: int
    record_entries: int
    sets: dict[str, int]  # sets decided, by their status now (a halted set approved is ratified)
    halts: dict[str, int]  # every halt ever raised, by reason code (open and resolved)
    halts_open: int
    halts_resolved: int
    error_rates: ErrorRates
    czar: CzarActivity
    # The revalidation queue (at-risk entries an operator works through), beside the halt rate
    revalidation: QueueFigures

    @property
    def retention_ratio(self) -> float | None:
        """Cumulative committed tokens / resident tokens (``None`` while the window is empty)."""
        if self.resident_tokens <= 0:
            return None
        return self.committed_tokens / self.resident_tokens

    @property
    def halt_rate(self) -> float:
        """Halts ever raised / sets decided: an operator's approval resolves a halt, it does not
        take it back (``halts_open`` and ``halts_resolved`` show the two apart)."""
        decided = sum(self.sets.values())
        return sum(self.halts.values()) / decided if decided else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "retention_ratio": self.retention_ratio,
            "halt_rate": self.halt_rate,
            "error_rates": self.error_rates.as_dict(),
            "czar": asdict(self.czar),
            "revalidation": {**asdict(self.revalidation), "open": self.revalidation.open},
        }


def stats(boundary: Boundary) -> BoundaryStats:
    """Retention ratio, resident tokens, set and halt counts and error rates of ``boundary``
    now."""
    rows = boundary.executor.read("metrics/stats", boundary_id=boundary.id)
    if not rows:
        raise StateError(f"no boundary {boundary.id}", boundary_id=boundary.id)
    r = rows[0]
    statuses = {h["status"]: int(h["count"]) for h in r["halt_statuses"]}
    return BoundaryStats(
        boundary_id=r["boundary_id"],
        seq=int(r["seq"] or 0),
        committed_tokens=int(r["committed_tokens"]),
        resident_tokens=int(r["resident_tokens"]),
        resident_tokens_recomputed=int(r["resident_tokens_recomputed"] or 0),
        resident_entries=int(r["resident_entries"]),
        live_count=int(r["live_count"]),
        requires_count=int(r["requires_count"]),
        record_entries=int(r["record_entries"]),
        sets={s["status"]: int(s["count"]) for s in r["sets"]},
        halts={h["reason_code"]: int(h["count"]) for h in r["halts"]},
        halts_open=statuses.get(HaltStatus.OPEN, 0),
        halts_resolved=statuses.get(HaltStatus.RESOLVED, 0),
        error_rates=rates(boundary),
        czar=czar_activity(boundary),
        revalidation=queue_figures(boundary.executor, boundary.id),
    )


@dataclass(frozen=True, slots=True)
class BoundaryGauge:
    """What ``/metrics`` exports for one boundary (the gate's running counts)."""

    boundary_id: str
    seq: int
    committed_tokens: int
    resident_tokens: int
    live_count: int

    @property
    def retention_ratio(self) -> float | None:
        return self.committed_tokens / self.resident_tokens if self.resident_tokens > 0 else None


@dataclass(frozen=True, slots=True)
class Overview:
    """Database-wide gauges: per boundary (at most ``limit`` of ``boundaries_total``), and halts
    by (reason code, status)."""

    boundaries_total: int
    boundaries: tuple[BoundaryGauge, ...]
    halts: dict[tuple[str, str], int]


def overview(executor: QueryExecutor, *, limit: int = 1000) -> Overview:
    """Per-boundary gauges (the first ``limit`` boundaries by id) and halt counts: two reads."""
    rows = executor.read("metrics/boundaries", limit=limit)
    halts = executor.read("metrics/halts")
    return Overview(
        boundaries_total=int(rows[0]["total"]) if rows else 0,
        boundaries=tuple(
            BoundaryGauge(
                boundary_id=r["boundary_id"],
                seq=int(r["seq"]),
                committed_tokens=int(r["committed_tokens"]),
                resident_tokens=int(r["resident_tokens"]),
                live_count=int(r["live_count"]),
            )
            for r in rows
        ),
        halts={(h["reason_code"], h["status"]): int(h["halts"]) for h in halts},
    )
