"""What a refusal writes (pure): a halt or a rejection of a set records the set and its proposals
with that status, a review receipt, the halt (open, for an operator) or not, and the halt or
rejection receipt. Nothing else: no entry, no edge, no seq, no writer registration.

Besides the predicates' violations, the refusals decided outside the library live here:
``NO_PLACEMENT`` (the set constructor could not place a proposal), ``SET_ID_TAKEN`` (an explicit
set id already names a recorded set), and ``WRITE_FAILED`` (the write transaction could not write
the set, or a recorded payload cannot be parsed into a proposal): no pending proposal may block
the boundary, so what cannot be written is rejected in a transaction that records only that.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg_context.gate.pure.batch import CitedEntry, Context, Decision, receipt, set_props
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.feedback import UNKNOWN
from kg_context.gate.pure.rows import Plan
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation
from kg_context.vocabulary import (
    STANDING_STATUSES,
    HaltStatus,
    Outcome,
    ReasonCode,
    ReceiptKind,
    SetKind,
    SetMode,
)

__all__ = [
    "UnreadableProposal",
    "not_standing",
    "plan_refusal",
    "plan_unreadable",
    "rejection_for_unplaced",
    "set_id_taken",
    "write_failed",
]


@dataclass(frozen=True, slots=True)
class UnreadableProposal:
    """A pending proposal whose recorded payload cannot be parsed: what its node says of it."""

    id: str
    writer_id: str
    digest: str
    problem: str


def rejection_for_unplaced(proposal: Proposal) -> Violation:
    """The set constructor's refusal: a proposal with neither a set id nor a target."""
    return Violation(
        ReasonCode.NO_PLACEMENT,
        f"proposal {proposal.id} carries neither a set id nor declared targets",
        "",
    )


def set_id_taken(set_id: str, boundary_id: str) -> Violation:
    """An explicit set id that already names a decided set: sets are closed once decided."""
    return Violation(
        ReasonCode.SET_ID_TAKEN,
        f"set id {set_id} already names a decided set of boundary {boundary_id}; a set id is "
        "never reused (the proposals are recorded under a fresh set id)",
        "",
    )


def write_failed(problem: str) -> Violation:
    """The write transaction could not write the set (decided alone, it failed again)."""
    return Violation(
        ReasonCode.WRITE_FAILED,
        f"the gate's write transaction could not write this set: {problem}",
        "",
    )


def plan_refusal(
    plan: Plan, ctx: Context, view: SetView, violation: Violation, passed: list[str]
) -> Decision:
    """A halt or a rejection (see the module docstring)."""
    set_id = view.closed.set_id
    outcome = violation.outcome
    props = set_props(ctx, view, outcome.set_status)
    props["mode"] = SetMode.GOVERNED.value
    decided = plan.add_set({"id": set_id, "prev_id": None, "props": props})
    for p in view.closed.proposals:
        decided.proposals.append({"id": p.id, "status": outcome.proposal_status})
    serial = ctx.serial(set_id)
    decided.receipts.append(
        receipt(
            ctx,
            ctx.record_id(set_id, "review", serial),
            ReceiptKind.REVIEW,
            set_id,
            decision=outcome.value,
            reasons=[*passed, violation.reason_code.value],
            source_writer=props["writer_ids"],
        )
    )
    halt_id = _plan_halt(plan, ctx, set_id, violation, serial) if outcome is Outcome.HALT else None
    receipt_id = (
        ctx.record_id(set_id, "halt", serial, "receipt")
        if halt_id
        else ctx.record_id(set_id, "rejection")
    )
    writers = sorted({p.writer_id for p in view.closed.proposals})
    _refusal_receipt(plan, ctx, set_id, receipt_id, violation, writers, view, halt_id)
    return Decision(
        outcome=outcome,
        set_id=set_id,
        boundary_id=ctx.boundary_id,
        seq=None,
        proposal_ids=tuple(p.id for p in view.closed.proposals),
        entry_ids=(),
        receipt_id=receipt_id,
        constitution_version=ctx.constitution.version,
        reason_code=violation.reason_code.value,
        detail=violation.detail,
        suggested_amendment=violation.suggested_amendment,
        halt_id=halt_id,
        not_standing=not_standing(view, ctx.snapshot),
    )


def _citations(view: SetView) -> list[tuple[str, str | None, str, str, bool]]:
    """What the set cites: (entry id, its boundary or None for the own, declared as, by whom,
    whether it must stand). Supersession, residency, essential provenance, transitions and
    foundational marks need a standing target; supporting provenance only an existing one."""
    found: list[tuple[str, str | None, str, str, bool]] = []
    for _proposal, entry_id, entry in view.entries:
        found += [
            (r.entry_id, r.boundary_id, "supersedes", entry_id, True) for r in entry.supersedes
        ]
        found += [(r.entry_id, r.boundary_id, "requires", entry_id, True) for r in entry.requires]
        found += [
            (r.entry_id, r.boundary_id, "derived_from", entry_id, r.essential)
            for r in entry.derived_from
        ]
    for proposal in view.closed.proposals:
        found += [
            (t.entry_id, None, "transition", proposal.id, False) for t in proposal.transitions
        ]
        found += [(e, None, "foundational", proposal.id, True) for e in proposal.foundational]
    return found


def not_standing(view: SetView, snapshot: Snapshot) -> tuple[CitedEntry, ...]:
    """The set's citations of entries that are unknown, or not standing where standing is
    needed, with the status the snapshot (the graph, read under the boundary's lock) holds."""
    own = snapshot.boundary.id
    out: list[CitedEntry] = []
    for ref_id, where, cited_as, by, must_stand in _citations(view):
        if where is not None:
            found = snapshot.foreign.get((where, ref_id))
            status = found.status if found is not None else None
        elif ref_id in view.new_status:
            status = view.new_status[ref_id].value
        else:
            entry = snapshot.own(ref_id)
            status = entry.status if entry is not None else None
        if status is None:
            status = UNKNOWN
        elif not must_stand or status in STANDING_STATUSES:
            continue
        cited = CitedEntry(ref_id, where or own, status, cited_as, by)
        if cited not in out:
            out.append(cited)
    return tuple(out)


def _refusal_receipt(
    plan: Plan,
    ctx: Context,
    set_id: str,
    receipt_id: str,
    violation: Violation,
    writers: list[str],
    view: SetView | None,
    halt_id: str | None = None,
) -> None:
    """The rejection receipt, or the halt receipt of a held set (a
    ``state_rejection_receipt`` either way: refused or held, state unchanged; a halt receipt
    names its halt)."""
    halted = violation.outcome is Outcome.HALT
    digest = next(row["props"]["digest"] for row in plan.sets if row["id"] == set_id)
    plan.decided[set_id].receipts.append(
        receipt(
            ctx,
            receipt_id,
            ReceiptKind.HALT if halted else ReceiptKind.REJECTION,
            set_id,
            decision=violation.outcome.value,
            source_writer=writers,
            allowed_effects=[],
            refused_effects=[f"create:{i}" for _, i, _ in view.entries] if view else [],
            reasons=[violation.reason_code.value],
            reason_code=violation.reason_code.value,
            detail=violation.detail,
            suggested_amendment=violation.suggested_amendment,
            state_revision=ctx.snapshot.boundary.seq,
            changed_ids=[],
            content_digest=digest,
            halt_id=halt_id,
        )
    )


def _plan_halt(plan: Plan, ctx: Context, set_id: str, violation: Violation, serial: int) -> str:
    """An open halt on the set, with its typed reason and the suggested amendment."""
    halt_id = ctx.record_id(set_id, "halt", serial)
    plan.halts.append(
        {
            "set_id": set_id,
            "props": {
                "id": halt_id,
                "boundary_id": ctx.boundary_id,
                "set_id": set_id,
                "reason_code": violation.reason_code.value,
                "detail": violation.detail,
                "suggested_amendment": violation.suggested_amendment,
                "status": HaltStatus.OPEN.value,
                "opened_at": ctx.now,
                "constitution_version": ctx.constitution.version,
                # The boundary's seq when it halted, and the threshold it tripped on with the
                # value measured (None for a predicate that measures nothing): its halt class.
                "at_seq": ctx.snapshot.boundary.seq,
                "parameter": violation.parameter,
                "observed": violation.observed,
            },
        }
    )
    return halt_id


def plan_unreadable(
    plan: Plan, ctx: Context, unreadable: UnreadableProposal, set_id: str
) -> Decision:
    """A proposal whose recorded payload cannot be parsed, rejected WRITE_FAILED alone under
    ``set_id``: its set and its status, a review and a rejection receipt."""
    violation = Violation(
        ReasonCode.WRITE_FAILED,
        f"the recorded payload of proposal {unreadable.id} cannot be parsed: {unreadable.problem}",
        "",
    )
    props: dict[str, object] = {
        "id": set_id,
        "boundary_id": ctx.boundary_id,
        "status": Outcome.REJECT.set_status.value,
        "seq": None,
        "writer_id": unreadable.writer_id,
        "writer_ids": [unreadable.writer_id],
        "summary": f"unreadable proposal {unreadable.id}",
        "closed_at": ctx.now,
        "kind": SetKind.STATE.value,
        "explicit": False,
        "digest": unreadable.digest,
        "proposal_ids": [unreadable.id],
        "mode": SetMode.GOVERNED.value,
    }
    decided = plan.add_set({"id": set_id, "prev_id": None, "props": props})
    decided.proposals.append({"id": unreadable.id, "status": Outcome.REJECT.proposal_status})
    decided.receipts.append(
        receipt(
            ctx,
            ctx.record_id(set_id, "review", 1),
            ReceiptKind.REVIEW,
            set_id,
            decision=Outcome.REJECT.value,
            reasons=[ReasonCode.WRITE_FAILED.value],
            source_writer=[unreadable.writer_id],
        )
    )
    receipt_id = ctx.record_id(set_id, "rejection")
    _refusal_receipt(plan, ctx, set_id, receipt_id, violation, [unreadable.writer_id], None)
    return Decision(
        outcome=Outcome.REJECT,
        set_id=set_id,
        boundary_id=ctx.boundary_id,
        seq=None,
        proposal_ids=(unreadable.id,),
        entry_ids=(),
        receipt_id=receipt_id,
        constitution_version=ctx.constitution.version,
        reason_code=ReasonCode.WRITE_FAILED.value,
        detail=violation.detail,
        suggested_amendment="",
    )
