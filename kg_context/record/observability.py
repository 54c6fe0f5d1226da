"""Error observability: retirements made visible when they were wrong.

``audit`` reads the record for candidate false retirements, resurrections and unjustified
retirements; ``rates`` turns it into rates, from edges, statuses and seqs, never from a
justification's text. Candidates, not verdicts: the audit proposes, the operator decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from kg_context.db.executor import Record
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.status_machine import NEXT_STATUSES
from kg_context.record.revalidation import QueueFigures, queue_figures
from kg_context.vocabulary import EntryStatus

__all__ = [
    "Detection",
    "DetectionKind",
    "Distances",
    "ErrorRates",
    "FalseRetirement",
    "ObservabilityReport",
    "QueueFigures",
    "Ratio",
    "Resurrected",
    "Resurrection",
    "ResurrectionKind",
    "SupersessionCandidate",
    "audit",
    "nearest_rank",
    "queue_figures",
    "rates",
]


@dataclass(frozen=True, slots=True)
class FalseRetirement:
    entry_id: str
    key: str
    status: str
    retired_at_seq: int
    retired_by_set: str
    retired_by: str
    reason: str
    case: str | None
    justification: tuple[str, ...]
    evidence: tuple[Record, ...]

    @property
    def kinds(self) -> set[str]:
        return {e["kind"] for e in self.evidence}


@dataclass(frozen=True, slots=True)
class Resurrection:
    entry_id: str
    key: str
    status: str
    resident: bool
    ledger_status: str
    ledger_resident: bool
    ledger_seq: int


@dataclass(frozen=True, slots=True)
class ObservabilityReport:
    boundary_id: str
    false_retirements: list[FalseRetirement]
    resurrections: list[Resurrection]
    unjustified_retirements: list[Record]

    def counts(self) -> dict[str, int]:
        return {
            "false_retirement_candidates": len(self.false_retirements),
            "resurrections": len(self.resurrections),
            "unjustified_retirements": len(self.unjustified_retirements),
        }


def audit(boundary: Boundary) -> ObservabilityReport:
    """Candidate false retirements, resurrections and unjustified retirements of a boundary."""
    executor, boundary_id = boundary.executor, boundary.id
    false_rows = executor.read("audits/false_retirements", boundary_id=boundary_id)
    resurrected = executor.read("audits/resurrections", boundary_id=boundary_id)
    unjustified = executor.read("audits/unjustified_retirements", boundary_id=boundary_id)
    return ObservabilityReport(
        boundary_id=boundary_id,
        false_retirements=[
            FalseRetirement(
                entry_id=r["entry_id"],
                key=r["key"],
                status=r["status"],
                retired_at_seq=r["retired_at_seq"],
                retired_by_set=r["retired_by_set"],
                retired_by=r["retired_by"],
                reason=r["reason"],
                case=r["case"],
                justification=tuple(r["justification"] or ()),
                evidence=tuple(sorted(r["evidence"], key=lambda e: (e["seq"], e["kind"], e["by"]))),
            )
            for r in false_rows
        ],
        resurrections=[
            Resurrection(
                entry_id=r["entry_id"],
                key=r["key"],
                status=r["status"],
                resident=bool(r["resident"]),
                ledger_status=r["ledger_status"],
                ledger_resident=bool(r["ledger_resident"]),
                ledger_seq=r["ledger_seq"],
            )
            for r in resurrected
        ],
        unjustified_retirements=unjustified,
    )


# -- rates ----------------------------------------------------------------------------------------
# An at-risk spell is abandoned when the entry leaves at_risk for anything but revalidated.
_ABANDONED = NEXT_STATUSES[EntryStatus.AT_RISK] - {EntryStatus.REVALIDATED}


class DetectionKind(StrEnum):
    """What mistake a detection distance measures."""

    INVALIDATION = "invalidation"
    FALSE_RETIREMENT = "false_retirement"


class ResurrectionKind(StrEnum):
    """How an entry that left standing came back."""

    RECALL = "recall"
    DEPENDENCY = "dependency"
    UNGOVERNED = "ungoverned"


@dataclass(frozen=True, slots=True)
class Ratio:
    """``numerator / denominator``; ``value`` is ``None`` when there is nothing to count."""

    numerator: int
    denominator: int

    @property
    def value(self) -> float | None:
        return self.numerator / self.denominator if self.denominator else None

    def render(self) -> str:
        value = self.value
        return f"{self.numerator}/{self.denominator} ({'n/a' if value is None else f'{value:.1%}'})"

    def as_dict(self) -> dict[str, Any]:
        return {"numerator": self.numerator, "denominator": self.denominator, "value": self.value}


def nearest_rank(values: Sequence[int], q: float) -> int | None:
    """The ``q``-quantile by nearest rank (an observed value; ``None`` for no values)."""
    if not 0 < q <= 1:
        raise ValueError(f"a quantile is in (0, 1], not {q}")
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(math.ceil(q * len(ordered)), 1) - 1]


@dataclass(frozen=True, slots=True)
class Distances:
    """Detection distances in sets: how many, mean, median (nearest rank) and max."""

    count: int
    mean: float | None
    p50: int | None
    max: int | None

    @classmethod
    def of(cls, values: Sequence[int]) -> Distances:
        if not values:
            return cls(count=0, mean=None, p50=None, max=None)
        return cls(len(values), sum(values) / len(values), nearest_rank(values, 0.5), max(values))

    def render(self) -> str:
        if not self.count:
            return "none"
        return f"n={self.count} mean {self.mean:.2f} p50 {self.p50} max {self.max}"


@dataclass(frozen=True, slots=True)
class Detection:
    """One mistake and the set that detected it, ``distance`` sets later."""

    kind: DetectionKind
    entry_id: str
    mistake_seq: int
    mistake_set: str
    detected_seq: int
    detected_by_set: str

    @property
    def distance(self) -> int:
        return self.detected_seq - self.mistake_seq


@dataclass(frozen=True, slots=True)
class Resurrected:
    """An entry that left standing at ``left_at`` and came back (``seq`` is ``None`` for an
    ungoverned write: no set did it)."""

    entry_id: str
    kind: ResurrectionKind
    left_at: int
    seq: int | None


@dataclass(frozen=True, slots=True)
class SupersessionCandidate:
    entry_id: str
    key: str
    status: str
    superseded_by: str
    superseded_at_seq: int
    reason: str | None
    invalidated_at_seq: int
    invalidated_by_set: str


@dataclass(frozen=True, slots=True)
class ErrorRates:
    """The error rates of a boundary, with what they count."""

    boundary_id: str
    false_retirement: Ratio
    false_supersession: Ratio
    resurrection: Ratio
    at_risk_revalidated: Ratio
    at_risk_abandoned: Ratio
    at_risk_open: Ratio
    detections: tuple[Detection, ...]
    resurrections: tuple[Resurrected, ...]
    supersession_candidates: tuple[SupersessionCandidate, ...]

    def detection(self, kind: DetectionKind | str | None = None) -> Distances:
        """Detection distances of one kind of mistake, or of all."""
        return Distances.of([d.distance for d in self.detections if kind is None or d.kind == kind])

    def as_dict(self) -> dict[str, Any]:
        ratios = (
            "false_retirement",
            "false_supersession",
            "resurrection",
            "at_risk_revalidated",
            "at_risk_abandoned",
            "at_risk_open",
        )
        return {
            "boundary_id": self.boundary_id,
            **{name: getattr(self, name).as_dict() for name in ratios},
            "detection": {
                "all": asdict(self.detection()),
                **{k.value: asdict(self.detection(k)) for k in DetectionKind},
            },
            "detections": [{**asdict(d), "distance": d.distance} for d in self.detections],
            "resurrections": [asdict(r) for r in self.resurrections],
            "supersession_candidates": [asdict(c) for c in self.supersession_candidates],
        }


def _detections(row: Record, report: ObservabilityReport) -> list[Detection]:
    found = [
        Detection(
            DetectionKind.INVALIDATION,
            r["entry_id"],
            r["mistake_seq"],
            r["mistake_set"],
            r["detected_seq"],
            r["detected_by_set"],
        )
        for r in row["invalidated"]
    ]
    for f in report.false_retirements:
        first = min(f.evidence, key=lambda e: (e["seq"], e["set_id"]))
        found.append(
            Detection(
                DetectionKind.FALSE_RETIREMENT,
                f.entry_id,
                f.retired_at_seq,
                f.retired_by_set,
                first["seq"],
                first["set_id"],
            )
        )
    return sorted(found, key=lambda d: (d.detected_seq, d.kind, d.entry_id))


def _resurrections(row: Record, report: ObservabilityReport) -> list[Resurrected]:
    ungoverned = {r.entry_id for r in report.resurrections}
    found = []
    for r in row["left_standing"]:
        for kind in ResurrectionKind:
            seq = None if kind is ResurrectionKind.UNGOVERNED else r[kind.value]
            if seq is not None or (
                kind is ResurrectionKind.UNGOVERNED and r["entry_id"] in ungoverned
            ):
                found.append(Resurrected(r["entry_id"], kind, r["left_at"], seq))
    return found


def rates(boundary: Boundary, report: ObservabilityReport | None = None) -> ErrorRates:
    """The error rates of ``boundary`` now (``report``: its ``audit``, read again if not given)."""
    report = report or audit(boundary)
    executor = boundary.executor
    found = executor.read("audits/error_rates", boundary_id=boundary.id)
    if not found:
        raise StateError(f"no boundary {boundary.id}", boundary_id=boundary.id)
    row = found[0]
    candidates = [
        SupersessionCandidate(**{f.name: r[f.name] for f in fields(SupersessionCandidate)})
        for r in executor.read("audits/supersession_candidates", boundary_id=boundary.id)
    ]
    resurrected = _resurrections(row, report)
    at_risk = row["at_risk"]
    ended = [r["ended_as"] for r in at_risk]
    return ErrorRates(
        boundary_id=boundary.id,
        false_retirement=Ratio(len(report.false_retirements), int(row["retirements"])),
        false_supersession=Ratio(len(candidates), int(row["supersessions"])),
        resurrection=Ratio(len({r.entry_id for r in resurrected}), len(row["left_standing"])),
        at_risk_revalidated=Ratio(ended.count(EntryStatus.REVALIDATED), len(at_risk)),
        at_risk_abandoned=Ratio(sum(e in _ABANDONED for e in ended), len(at_risk)),
        at_risk_open=Ratio(ended.count(None), len(at_risk)),
        detections=tuple(_detections(row, report)),
        resurrections=tuple(resurrected),
        supersession_candidates=tuple(candidates),
    )
