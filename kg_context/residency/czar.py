"""The compaction czar: a writer of its own (kind ``czar``) that proposes compaction sets.

It plans from one read (``czar_plan``) and submits the plan through the gate, which ratifies or
halts it; the czar never writes the window. Each run is kept as a report node, and one run per
boundary runs at a time, across processes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision
from kg_context.residency.czar_plan import CzarPlan, plan_compaction
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import DEFAULT_CZAR_EVERY_COMMITS, CzarTrigger, EntryStatus, Outcome

__all__ = [
    "CzarPlan",
    "CzarReport",
    "plan_compaction",
    "run_czar",
    "run_czar_if_due",
    "run_due_czars",
]

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
    and after each compaction set the gate decides. A czar run of the boundary in progress
    elsewhere is waited for (at most its lease), then this one runs."""
    settings = settings or boundary.settings.residency
    run_id = _claim(boundary, settings, due_only=False)
    deadline = time.monotonic() + settings.czar_run_lease_s + 5.0
    pause = 0.02
    while run_id is None:
        if time.monotonic() > deadline:
            raise StateError(
                f"another czar run of boundary {boundary.id} holds it past its lease",
                boundary_id=boundary.id,
            )
        time.sleep(pause)
        pause = min(pause * 2, 0.5)
        run_id = _claim(boundary, settings, due_only=False)
    try:
        return _run_claimed(
            boundary,
            run_id,
            settings=settings,
            czar_id=czar_id,
            progress=progress,
            trigger=trigger,
        )
    except BaseException:
        _release(boundary, run_id)
        raise


def run_czar_if_due(
    boundary: Boundary, *, settings: ResidencySettings | None = None
) -> CzarReport | None:
    """The cadence run: the czar runs (trigger ``cadence``) when the cadence ``boundary``
    records is due and no other czar run holds it, else nothing happens (``None``): another
    engine's run took this cadence, or it is not due."""
    settings = settings or boundary.settings.residency
    run_id = _claim(boundary, settings, due_only=True)
    if run_id is None:
        return None
    try:
        return _run_claimed(boundary, run_id, settings=settings, trigger=CzarTrigger.CADENCE)
    except BaseException:
        _release(boundary, run_id)
        raise


def run_due_czars(
    executor: QueryExecutor,
    handle: Callable[[str], Boundary],
    *,
    boundary_ids: list[str] | None = None,
    limit: int = 100,
) -> list[CzarReport]:
    """One round of ``kg-context czar watch``: the cadence run of every boundary (of
    ``boundary_ids``, where given) whose recorded cadence is due and unclaimed (at most
    ``limit``), each on its ``handle``; the runs made (one another czar took makes none)."""
    rows = executor.read(
        "czar/due_boundaries",
        boundary_ids=boundary_ids,
        default_czar_every=DEFAULT_CZAR_EVERY_COMMITS,
        limit=limit,
    )
    reports = [run_czar_if_due(handle(row["id"])) for row in rows]
    return [r for r in reports if r is not None]


def _claim(boundary: Boundary, settings: ResidencySettings, *, due_only: bool) -> str | None:
    """Claim the boundary's czar run (``cypher/czar/claim_run.cypher``): its run id, or ``None``
    when it is not granted."""
    run_id = uuid.uuid4().hex
    rows = boundary.executor.write(
        "czar/claim_run",
        boundary_id=boundary.id,
        run_id=run_id,
        due_only=due_only,
        lease_s=settings.czar_run_lease_s,
        default_czar_every=DEFAULT_CZAR_EVERY_COMMITS,
    )
    return run_id if rows else None


def _release(boundary: Boundary, run_id: str) -> None:
    """End run ``run_id``'s claim: a run that raised (a finished run's report write ends it)."""
    boundary.executor.write("czar/release_run", boundary_id=boundary.id, run_id=run_id)


def _run_claimed(
    boundary: Boundary,
    run_id: str,
    *,
    settings: ResidencySettings,
    czar_id: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    trigger: CzarTrigger = CzarTrigger.MANUAL,
) -> CzarReport:
    """One czar run, its claim (``run_id``) held; the report's write ends the claim."""
    started = time.perf_counter()
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
    record = _record(boundary, run_id, plan, proposals, decisions, trigger, took_ms)
    return CzarReport(plan=plan, decisions=tuple(decisions), trigger=trigger, record=record)


def _record(
    boundary: Boundary,
    run_id: str,
    plan: CzarPlan,
    proposals: list[Proposal],
    decisions: list[Decision],
    trigger: CzarTrigger,
    took_ms: float,
) -> Record:
    """Write the run's report node and end claim ``run_id`` (one write); what the committed
    sets moved is counted from the proposals the gate ratified, never from the plan alone."""
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
        "czar/record_report",
        boundary_id=boundary.id,
        run_id=run_id,
        props=props,
        ran_at=ran_at.isoformat(),
    )
    return rows[0] if rows else {}


def _jsonable(record: Record) -> dict[str, Any]:
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in record.items()}
