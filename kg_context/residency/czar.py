"""The compaction czar: a writer of its own (kind ``czar``) that proposes compaction sets.

It plans from one read of the boundary (``czar_plan.plan_compaction``: declared supersession
not yet executed, deliberative material superseded by default, expired leases, residency by
reachability from the roots, interfaces for what staying dependents need), and submits the plan.

The plan is a ``Proposal`` of kind ``compaction`` submitted through ``Boundary.commit``: the
gate ratifies or halts it; the czar never writes the window. It skips entries it wrote itself
(independence; the constitution would reject them), and reports what it could not decide.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kg_context.errors import InputValidationError
from kg_context.gate.boundary import Boundary
from kg_context.gate.decision import Decision
from kg_context.residency.czar_plan import CzarPlan, plan_compaction
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import EntryStatus

__all__ = ["CzarPlan", "CzarReport", "every_n_commits", "plan_compaction", "run_czar"]

_SKIP_PROPS = frozenset({"embedding"})
# A proposal carries at most 10,000 transitions; the czar splits larger compactions.
_TRANSITIONS_PER_SET = 5_000


@dataclass(frozen=True, slots=True)
class CzarReport:
    """One czar run: its plan and the gate's decisions on the compaction sets."""

    plan: CzarPlan
    decisions: tuple[Decision, ...]

    @property
    def committed(self) -> bool:
        return all(d.outcome == "commit" for d in self.decisions)

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
            "unclear": p.unclear,
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
) -> CzarReport:
    """Plan the compaction of ``boundary`` under its current constitution and submit it through
    the gate. ``settings`` default to the handle's (the engine's). ``progress(done, total)`` is
    called after planning and after each compaction set the gate decides."""
    settings = settings or boundary.settings.residency
    constitution = boundary.constitution()
    plan = plan_compaction(
        boundary.executor, boundary.id, constitution, settings=settings, czar_id=czar_id
    )
    if plan.empty:
        return CzarReport(plan=plan, decisions=())
    decisions = []
    proposals = list(plan.proposals(constitution.density.max_set_fanout))
    unclear = plan.unclear_proposal()
    total = len(proposals) + (unclear is not None)
    if progress is not None:
        progress(0, total)
    for proposal in proposals:
        decision = boundary.commit(proposal)
        decisions.append(decision)
        if progress is not None:
            progress(len(decisions), total)
        if decision.outcome != "commit":
            break
    if unclear is not None:
        decisions.append(boundary.commit(unclear))  # halts UNCLEAR_COMPACTION (once: same id)
        if progress is not None:
            progress(total, total)
    return CzarReport(plan=plan, decisions=tuple(decisions))


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
            run_czar(boundary, settings=settings)

    return hook
