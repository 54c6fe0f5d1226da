"""The operator's briefing (the periodic audit): what happened in a boundary since the last
briefing, from the record: sets by outcome, halts, the czar's runs, invalidations, the retention
trend, error rates, revocations, the revalidation queue and suggested amendments. ``brief`` is a
read; ``record_brief`` (an operator's write) records it, so the next one starts where it ended.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kg_context.errors import InputValidationError, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.revocation import revocations
from kg_context.record.amendments import suggest_amendments
from kg_context.record.observability import queue_figures, rates
from kg_context.vocabulary import HaltStatus, SetKind, SetStatus

__all__ = [
    "Brief",
    "CzarRun",
    "HaltGroup",
    "Invalidation",
    "RetentionPoint",
    "SetCount",
    "brief",
    "record_brief",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SetCount(_Model):
    status: str
    kind: str
    count: int


class HaltGroup(_Model):
    reason_code: str
    status: str
    count: int
    halt_ids: list[str]
    suggested_amendment: str | None = None


class CzarRun(_Model):
    id: str
    seq: int
    ran_at: str
    trigger: str
    proposed: int
    retired: int
    window_out: int
    interfaces: int
    halted: int
    resident_entries: int
    resident_tokens: int
    committed_tokens: int
    warning: str | None = None
    took_ms: float | None = None


class Invalidation(_Model):
    set_id: str
    seq: int
    summary: str | None
    moved: dict[str, int]

    @property
    def blast_radius(self) -> int:
        return sum(self.moved.values())


class RetentionPoint(_Model):
    """The window at one czar report: resident tokens / every token ever committed."""

    seq: int
    resident_tokens: int
    committed_tokens: int
    retention: float | None


class Brief(_Model):
    """One operator's briefing of one boundary: from ``since_seq`` (exclusive) to ``seq``;
    ``id`` is its audit event's once recorded (``record_brief``), ``None`` for a read."""

    boundary_id: str
    id: str | None
    seq: int
    since_seq: int
    at: str
    sets: list[SetCount]
    halts: list[HaltGroup]
    czar_runs: list[CzarRun]
    invalidations: list[Invalidation]
    retention_trend: list[RetentionPoint]
    error_rates: dict[str, Any]
    amendments: list[dict[str, Any]] = Field(default_factory=list)
    # Operators' revocations at or after since_seq, and the revalidation queue's figures now.
    revocations: list[dict[str, Any]] = Field(default_factory=list)
    revalidation: dict[str, Any] = Field(default_factory=dict)

    @property
    def sets_by_outcome(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in self.sets:
            out[s.status] = out.get(s.status, 0) + s.count
        return out

    @property
    def czar_warnings(self) -> list[str]:
        return [r.warning for r in self.czar_runs if r.warning]

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.model_dump(mode="json"),
            "sets_by_outcome": self.sets_by_outcome,
            "czar_warnings": self.czar_warnings,
            "czar_retired": sum(r.retired for r in self.czar_runs),
        }

    def render(self) -> str:
        """The briefing as text for the operator."""
        lines = [f"# Briefing {self.boundary_id}: seq {self.since_seq} -> {self.seq} ({self.at})"]
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(self.sets_by_outcome.items()))
        lines.append(f"sets: {outcomes or 'none'}")
        lines.append("halts (open first):" if self.halts else "halts: none")
        for h in self.halts:
            lines.append(f"  {h.status} {h.reason_code} x{h.count}: {', '.join(h.halt_ids)}")
        retired = sum(r.retired for r in self.czar_runs)
        lines.append(f"czar: {len(self.czar_runs)} run(s), {retired} retired")
        for r in self.czar_runs:
            lines.append(
                f"  seq {r.seq} {r.trigger}: proposed {r.proposed}, retired {r.retired}, "
                f"out {r.window_out}, interfaces {r.interfaces}, halted {r.halted}; window "
                f"{r.resident_entries} entries / {r.resident_tokens} tokens"
            )
        for warning in self.czar_warnings:
            lines.append(f"  WARNING: {warning}")
        lines.append(f"invalidations: {len(self.invalidations)}")
        for inv in self.invalidations:
            lines.append(f"  {inv.set_id} (seq {inv.seq}): blast radius {inv.blast_radius}")
        trend = ", ".join(
            f"{p.seq}: {'n/a' if p.retention is None else f'{p.retention:.3f}'}"
            for p in self.retention_trend
        )
        lines.append(f"retention (resident / committed tokens) by seq: {trend or 'no czar run'}")
        ratios = [
            f"{k.replace('_', ' ')} {v['numerator']}/{v['denominator']}"
            for k, v in self.error_rates.items()
            if isinstance(v, dict) and "denominator" in v
        ]
        lines.append(f"error rates: {', '.join(ratios) or 'none'}")
        lines.append(f"revocations: {len(self.revocations)}")
        for rv in self.revocations:
            lines.append(
                f"  seq {rv['seq']} {rv['subject']} {rv['subject_id']} by {rv['operator_id']}: "
                f"{rv['reason']}"
            )
        if self.revalidation:
            q = self.revalidation
            lines.append(
                f"at risk (revalidation queue): {q['open']} open, {q['opened']} opened, "
                f"{q['resolved']} resolved"
            )
        lines.append("amendments most halts suggest:" if self.amendments else "amendments: none")
        for a in self.amendments:
            lines.append(f"  {a['id']} ({a['count']} halts): {a['fragment'].strip()}")
            lines.append(f"    {a['rationale']}")
            adopt = f"kg-context constitution adopt-suggestion {a['id']} -b {self.boundary_id}"
            lines.append(f"    adopt: {adopt}")
        return "\n".join(lines)


def _amendments(boundary: Boundary) -> list[dict[str, Any]]:
    """The constitution amendments the boundary's decided halts suggest (all of them: a class
    that recurs across briefings is still suggested until the constitution covers it), without
    the full amended text."""
    found = suggest_amendments(boundary.executor, boundary)
    return [{k: v for k, v in s.as_dict().items() if k != "constitution_text"} for s in found]


def brief(boundary: Boundary, *, since_seq: int | None = None) -> Brief:
    """The operator's briefing of ``boundary`` since ``since_seq`` (default: the last recorded
    briefing's seq, else 0) up to the boundary's seq now. A read: nothing is recorded, and the
    next briefing starts where the last recorded one ended (``record_brief`` moves it)."""
    if since_seq is not None and since_seq < 0:
        raise InputValidationError(
            f"the seq to brief since must be >= 0, not {since_seq}", boundary_id=boundary.id
        )
    ex = boundary.executor
    found = ex.read("boundary/get", boundary_id=boundary.id)
    if not found:
        raise StateError(f"no boundary {boundary.id}", boundary_id=boundary.id)
    if since_seq is None:
        last = ex.read("briefing/last", boundary_id=boundary.id)
        since_seq = int(last[0]["seq"]) if last else 0
    bid = boundary.id
    sets = [
        SetCount(status=r["status"], kind=r["kind"] or "", count=int(r["n"]))
        for r in ex.read("briefing/sets", boundary_id=bid, since_seq=since_seq)
    ]
    halts = [
        HaltGroup(
            reason_code=r["reason_code"],
            status=r["status"],
            count=int(r["n"]),
            halt_ids=list(r["halt_ids"]),
            suggested_amendment=r["suggested_amendment"],
        )
        for r in ex.read(
            "briefing/halts", boundary_id=bid, since_seq=since_seq, open=HaltStatus.OPEN
        )
    ]
    runs = [CzarRun(**r) for r in ex.read("czar/reports", boundary_id=bid, since_seq=since_seq)]
    invalidations = [
        Invalidation(
            set_id=r["set_id"],
            seq=int(r["seq"]),
            summary=r["summary"],
            moved={m["to"]: int(m["count"]) for m in r["moved"]},
        )
        for r in ex.read(
            "briefing/invalidations",
            boundary_id=bid,
            since_seq=since_seq,
            kind=SetKind.INVALIDATION,
        )
    ]
    trend = [
        RetentionPoint(
            seq=r.seq,
            resident_tokens=r.resident_tokens,
            committed_tokens=r.committed_tokens,
            retention=r.resident_tokens / r.committed_tokens if r.committed_tokens else None,
        )
        for r in runs
    ]
    revoked = [
        {**asdict(r), "subject": r.subject.value}
        for r in revocations(ex, bid)
        if r.seq >= since_seq
    ]
    queue = queue_figures(ex, bid)
    return Brief(
        boundary_id=bid,
        id=None,
        seq=int(found[0]["seq"] or 0),
        since_seq=since_seq,
        at=datetime.now(UTC).isoformat(),
        sets=sets,
        halts=halts,
        czar_runs=runs,
        invalidations=invalidations,
        retention_trend=trend,
        error_rates=rates(boundary).as_dict(),
        amendments=_amendments(boundary),
        revocations=revoked,
        revalidation={**asdict(queue), "open": queue.open},
    )


def record_brief(boundary: Boundary, *, since_seq: int | None = None) -> Brief:
    """``brief``, recorded as an audit event of the boundary (an operator's write): the next
    briefing starts at its seq. The answer carries the event's id, seq and time."""
    composed = brief(boundary, since_seq=since_seq)
    props = {
        "id": f"{boundary.id}/briefing/{uuid.uuid4().hex[:12]}",
        "since_seq": composed.since_seq,
        "sets": sum(s.count for s in composed.sets),
        "sets_ratified": sum(s.count for s in composed.sets if s.status == SetStatus.RATIFIED),
        "halts_open": sum(h.count for h in composed.halts if h.status == HaltStatus.OPEN),
        "czar_runs": len(composed.czar_runs),
        "czar_warnings": len(composed.czar_warnings),
        "invalidations": len(composed.invalidations),
    }
    (recorded,) = boundary.executor.write(
        "briefing/record", boundary_id=boundary.id, props=props, at=composed.at
    )
    return composed.model_copy(
        update={"id": recorded["id"], "seq": int(recorded["seq"]), "at": recorded["at"]}
    )
