"""The compaction czar: a writer of its own (kind ``czar``) that proposes compaction sets.

It plans from one read of the boundary (``czar_plan.plan_compaction``: declared supersession
not yet executed, deliberative material superseded by default, expired leases, residency by
reachability from the roots, interfaces for what staying dependents need), and submits the plan.

The plan is a ``Proposal`` of kind ``compaction`` submitted through ``Boundary.commit``: the
gate ratifies or halts it; the czar never writes the window. It skips entries it wrote itself
(independence; the constitution would reject them), and reports what it could not decide.

Every run, on the engine's cadence or on demand, is kept in the graph as one report node linked
from its boundary (``cypher/czar/record_report.cypher``): what it proposed, retired and built,
what halted, the window it left (entries and tokens) and the guard's warning, if any.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kg_context.db.executor import Record
from kg_context.errors import InputValidationError
from kg_context.gate.boundary import Boundary
from kg_context.gate.contracts import Proposal
from kg_context.gate.decision import Decision
from kg_context.residency.czar_plan import CzarPlan, plan_compaction
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import CzarTrigger, EntryStatus, Outcome

__all__ = ["CzarPlan", "CzarReport", "every_n_commits", "plan_compaction", "run_czar"]

_SKIP_PROPS = frozenset({"embedding"})


@dataclass(frozen=True, slots=True)
class CzarReport:
    """One czar run: its plan and the gate's decisions on the compaction sets."""

    plan: CzarPlan
    decisions: tuple[Decision, ...]
    trigger: CzarTrigger = CzarTrigger.MANUAL
    # The report node as the graph recorded it (id, seq, ran_at, counts, window, warning).
    record: Record = field(default_factory=dict)

    @property
    def committed(self) -> bool:
        return all(d.outcome == "commit" for d in self.decisions)

    @property
    def warning(self) -> str | None:
        """Why the czar kept a window it would have emptied (``window_guard``), else ``None``."""
        return self.plan.warning

    def summary(self) -> dict[str, Any]:
        p = self.plan
        return {
            "boundary_id": p.boundary_id,
            "czar_id": p.czar_id,
            "seq": p.seq,
            "retired": sorted(t.entry_id for t in p.transitions if t.to is EntryStatus.RETIRED),
            "window_out": sorted(
                t.entry_id for t in p.transitions if t.to is None and t.resident is False
            ),
            "window_in": sorted(t.entry_id for t in p.transitions if t.resident is True),
            "interfaces": [e["id"] for e in p.interfaces],
            "expired_leases": len(p.expired_leases),
            "skipped_own": p.skipped_own,
            "held": p.held,
            "unclear": p.unclear,
            "warning": p.warning,
            "trigger": self.trigger.value,
            "report": _jsonable(self.record),
            "decisions": [
                {
                    "set_id": d.set_id,
                    "outcome": d.outcome,
                    "seq": d.seq,
                    "reason_code": d.reason_code,
                }
                for d in self.decisions
            ],
        }


def run_czar(
    boundary: Boundary,
    *,
    settings: ResidencySettings | None = None,
    czar_id: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    trigger: CzarTrigger = CzarTrigger.MANUAL,
) -> CzarReport:
    """Plan the compaction of ``boundary`` under its current constitution, submit it through
    the gate, and record the run's report node (``trigger`` says why it ran). ``settings``
    default to the handle's (the engine's). ``progress(done, total)`` is called after planning
    and after each compaction set the gate decides."""
    started = time.perf_counter()
    settings = settings or boundary.settings.residency
    constitution = boundary.constitution()
    plan = plan_compaction(
        boundary.executor, boundary.id, constitution, settings=settings, czar_id=czar_id
    )
    decisions: list[Decision] = []
    proposals = [] if plan.empty else list(plan.proposals(constitution.density.max_set_fanout))
    unclear = None if plan.empty else plan.unclear_proposal()
    total = len(proposals) + (unclear is not None)
    if progress is not None and total:
        progress(0, total)
    for proposal in proposals:
        decision = boundary.commit(proposal)
        decisions.append(decision)
        if progress is not None:
            progress(len(decisions), total)
        if decision.outcome != Outcome.COMMIT:
            break
    if unclear is not None:
        decisions.append(boundary.commit(unclear))  # halts UNCLEAR_COMPACTION (once: same id)
        if progress is not None:
            progress(total, total)
    took_ms = round((time.perf_counter() - started) * 1000, 3)
    record = _record(boundary, plan, proposals, decisions, trigger, took_ms)
    return CzarReport(plan=plan, decisions=tuple(decisions), trigger=trigger, record=record)


def _record(
    boundary: Boundary,
    plan: CzarPlan,
    proposals: list[Proposal],
    decisions: list[Decision],
    trigger: CzarTrigger,
    took_ms: float,
) -> Record:
    """Write the run's report node (one write); what the committed sets moved is counted from
    the proposals the gate ratified, never from the plan alone."""
    ratified = [
        p for p, d in zip(proposals, decisions, strict=False) if d.outcome == Outcome.COMMIT
    ]
    moved = [t for p in ratified for t in p.transitions]
    ran_at = datetime.now(UTC)
    props = {
        "id": f"{boundary.id}/czar-report/{plan.seq}/{uuid.uuid4().hex[:12]}",
        "czar_id": plan.czar_id,
        "trigger": trigger.value,
        "planned_at_seq": plan.seq,
        "proposed": len(plan.transitions) + len(plan.interfaces) + len(plan.unclear_transitions),
        "retired": sum(1 for t in moved if t.to is EntryStatus.RETIRED),
        "window_out": sum(1 for t in moved if t.resident is False),
        "window_in": sum(1 for t in moved if t.resident is True),
        "interfaces": sum(len(p.entries) for p in ratified),
        "expired_leases": len(plan.expired_leases),
        "halted": sum(1 for d in decisions if d.outcome == Outcome.HALT),
        "sets": [d.set_id for d in decisions],
        "warning": plan.warning,
        "took_ms": took_ms,  # planning and the gate's decisions (not this write)
    }
    rows = boundary.executor.write(
        "czar/record_report", boundary_id=boundary.id, props=props, ran_at=ran_at.isoformat()
    )
    return rows[0] if rows else {}


def _jsonable(record: Record) -> dict[str, Any]:
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in record.items()}


def every_n_commits(
    n: int, *, settings: ResidencySettings | None = None
) -> Callable[[Boundary, list[Decision]], None]:
    """A ``Boundary.after_commit`` hook that runs the czar whenever a commit crosses a multiple
    of ``n`` in the boundary's seq (its own compaction sets do not re-trigger it). ``settings``
    default to the handle's (the engine's)."""
    if n < 1:
        raise InputValidationError("the czar runs every n >= 1 commits")

    def hook(boundary: Boundary, decisions: list[Decision]) -> None:
        seqs = [d.seq for d in decisions if d.outcome == "commit" and d.seq is not None]
        if seqs and max(seqs) // n > (min(seqs) - 1) // n:
            run_czar(boundary, settings=settings, trigger=CzarTrigger.CADENCE)

    return hook
