"""Error observability (seed 002 section 5): retirements made visible when they were wrong.

Every retirement passes the gate as a declared transition that records the exact edges or facts
that justified it (``TRANSITIONED.justification``). This module reads the record for:

- candidate false retirements: retired entries that a *later* set shows were still needed (a
  later entry declares DERIVED_FROM or REQUIRES on it, a later recall set touches it, or a later
  invalidation walk reached it), each with the retirement's justification and the evidence;
- resurrections: entries the record shows live or resident although the ledger left them out
  (a retired or superseded entry used as live without passing the gate);
- unjustified retirements: retirements that recorded no justifying edge.

Candidates, not verdicts: the audit proposes, the operator decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg_context.db.executor import Record
from kg_context.gate.boundary import Boundary

__all__ = ["FalseRetirement", "ObservabilityReport", "Resurrection", "audit"]


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
