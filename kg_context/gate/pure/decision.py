"""The gate: the constitution executing at commit (pure logic, no I/O).

``evaluate`` takes closed sets in ledger order, the constitution and a snapshot read inside the
locked commit transaction, and returns one ``Decision`` per set plus the ``Plan`` of writes that
the store performs in that same transaction. Each set is all or nothing: commit (entries, edges,
status flips of superseded entries, review and commit receipts, boundary seq + 1; planned step by
step in ``commit_plan``), halt (a typed reason code, detail and suggested amendment; only the
record of the halt is written) or reject (malformed: a rejection receipt only). Sets later in a
batch see the effects of earlier ones, exactly as if each had committed in its own transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace

from kg_context.errors import ConfigurationError
from kg_context.gate.pure.authority import no_operator_problem, operator_problem
from kg_context.gate.pure.batch import Context, Decision, receipt, set_props
from kg_context.gate.pure.commit_plan import plan_commit
from kg_context.gate.pure.constitution import Constitution, parse_constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.copy_sources import apply_copy_source_rule
from kg_context.gate.pure.hard_fanout import apply_hard_fanout_rule
from kg_context.gate.pure.index_entries import constitution_index_props, count_index_tokens
from kg_context.gate.pure.predicates import HALTS, REJECTS
from kg_context.gate.pure.refusal import (
    UnreadableProposal,
    plan_refusal,
    plan_unreadable,
    rejection_for_unplaced,
    set_id_taken,
)
from kg_context.gate.pure.rehydration import apply_dependency_rule
from kg_context.gate.pure.revision import apply_revision_rule
from kg_context.gate.pure.rows import BoundaryRow, Plan
from kg_context.gate.pure.set_constructor import ClosedSet, implicit_set_id
from kg_context.gate.pure.snapshot import LockedBoundary, Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation
from kg_context.vocabulary import (
    Outcome,
    ReasonCode,
    ReceiptKind,
    SetMode,
    SetStatus,
    WriterKind,
)

__all__ = [
    "Decision",
    "Plan",
    "entry_tokens",
    "evaluate",
    "evaluate_constitution",
    "rejection_for_unplaced",
]

CountTokens = Callable[[Sequence[str]], list[int]]


def fresh_set_id(base: str) -> str:
    """A set id no writer can have claimed in advance (for a record the gate must write under
    an id of its own: a taken set id, a set whose write failed)."""
    return f"{base}/{uuid.uuid4().hex[:16]}"


def set_view(closed: ClosedSet, tokens: dict[str, int], append_only: bool) -> SetView:
    """A closed set with its entries (proposal, entry id, entry) listed once."""
    entries = tuple(
        (proposal, entry_id, entry)
        for proposal in closed.proposals
        for entry_id, entry in zip(proposal.entry_ids(), proposal.entries, strict=True)
    )
    return SetView(closed=closed, entries=entries, tokens=tokens, append_only=append_only)


def first_violation(
    view: SetView, constitution: Constitution, snapshot: Snapshot, waive: frozenset[str]
) -> tuple[Violation | None, list[str]]:
    """Rejections first, then halts; the first violation not waived, and the checks passed."""
    passed: list[str] = []
    for check in (*REJECTS, *HALTS):
        violation = check(view, constitution, snapshot)
        if violation is not None and violation.reason_code not in waive:
            return violation, passed
        passed.append(check.__name__ if violation is None else f"{check.__name__} (waived)")
    return None, passed


def _append_only(boundary: LockedBoundary, constitution: Constitution) -> bool:
    """Below the constitution's task horizon the boundary runs append-only."""
    horizon = boundary.task_horizon
    return horizon is not None and horizon < constitution.horizon.append_only_below


def entry_tokens(closed_sets: Sequence[ClosedSet], count_tokens: CountTokens) -> dict[str, int]:
    """Tokens per new entry of the batch, counted in one call."""
    bodies = [e.body for c in closed_sets for p in c.proposals for e in p.entries]
    ids = [i for c in closed_sets for p in c.proposals for i in p.entry_ids()]
    return dict(zip(ids, count_tokens(bodies), strict=True))


def evaluate(
    closed_sets: Sequence[ClosedSet],
    snapshot: Snapshot,
    constitution: Constitution,
    count_tokens: CountTokens,
    *,
    now: str,
    gateway_id: str,
    waive: frozenset[str] = frozenset(),
    halt_serial: Callable[[str], int] | None = None,
    unplaced: Sequence[Proposal] = (),
    unreadable: Sequence[UnreadableProposal] = (),
    redecide: bool = False,
    fresh_id: Callable[[str], str] = fresh_set_id,
    tokens: dict[str, int] | None = None,
) -> tuple[list[Decision], Plan]:
    """Decide every set in order and plan the writes. ``snapshot`` is updated in place.

    ``unplaced`` are proposals the set constructor could not place, ``unreadable`` pending
    proposals whose recorded payload cannot be parsed: each is rejected alone. ``redecide``: the
    sets are halted sets an operator decides again (their ids are recorded already, by them).
    ``tokens``: ``entry_tokens`` of ``closed_sets``, when the caller counted them already (the
    store counts them while the server reads the snapshot).
    """
    serial = halt_serial or (lambda _: 1)
    ctx = Context(snapshot, constitution, now, gateway_id, serial, waive)
    plan = Plan()
    used = set() if redecide else set(snapshot.taken_set_ids)
    decisions = [
        plan_unreadable(plan, ctx, u, fresh_id(implicit_set_id([u.id]))) for u in unreadable
    ]
    for proposal in unplaced:
        alone = _untaken(
            ClosedSet(implicit_set_id([proposal.id]), False, (proposal,)), used, fresh_id
        )
        view = set_view(alone, {i: 0 for i in proposal.entry_ids()}, False)
        decisions.append(plan_refusal(plan, ctx, view, rejection_for_unplaced(proposal), []))
    append_only = _append_only(snapshot.boundary, constitution)
    if tokens is None:
        tokens = entry_tokens(closed_sets, count_tokens)
    for declared in closed_sets:
        closed = _untaken(declared, used, fresh_id)
        view = apply_revision_rule(set_view(closed, tokens, append_only), constitution, snapshot)
        view = apply_hard_fanout_rule(view, constitution, snapshot)
        view = apply_copy_source_rule(view, constitution, snapshot)
        view = apply_dependency_rule(view, constitution, snapshot, count_tokens)
        if closed.set_id != declared.set_id and declared.explicit:
            violation: Violation | None = set_id_taken(declared.set_id, snapshot.boundary.id)
            passed: list[str] = []
        else:
            violation, passed = first_violation(view, constitution, snapshot, waive)
        if violation is None:
            decisions.append(plan_commit(plan, ctx, view, passed))
        else:
            decisions.append(plan_refusal(plan, ctx, view, violation, passed))
    plan.boundary = boundary_row(snapshot)
    count_index_tokens(plan, count_tokens)
    return decisions, plan


def _untaken(closed: ClosedSet, used: set[str], fresh_id: Callable[[str], str]) -> ClosedSet:
    """The set under its id, or under a fresh one when the record (or this batch) holds that id
    already: an explicit set is then refused SET_ID_TAKEN under the fresh id; an implicit one
    (the gate named it) is decided as usual under it."""
    out = closed if closed.set_id not in used else replace(closed, set_id=fresh_id(closed.set_id))
    used.add(out.set_id)
    return out


def _constitution_violation(
    proposal: Proposal, current: Constitution, recorded_sha: str | None, snapshot: Snapshot
) -> tuple[Violation | None, Constitution | None]:
    """Only an operator writer the current constitution names may change the constitution; the
    text must be a valid constitution under a version not yet recorded with other rules, and
    leave an operator who can act (``snapshot.writers``: the registered kinds of the writers it
    names)."""
    if proposal.writer_kind is not WriterKind.OPERATOR:
        return Violation(
            ReasonCode.NOT_OPERATOR,
            f"writer {proposal.writer_id} is a {proposal.writer_kind.value}; only an operator "
            "writer may change the constitution",
            "",
        ), None
    unnamed = operator_problem(current, proposal.writer_id)
    if unnamed is not None:
        return Violation(ReasonCode.NOT_AUTHORIZED, unnamed, ""), None
    try:
        proposed = parse_constitution(proposal.entries[0].body, source="proposed constitution")
    except ConfigurationError as err:
        return Violation(ReasonCode.INVALID_CONSTITUTION, str(err), ""), None
    if proposed.version == current.version or (
        recorded_sha is not None and recorded_sha != proposed.sha256
    ):
        return Violation(
            ReasonCode.CONSTITUTION_VERSION_TAKEN,
            f"version {proposed.version} is already recorded; give the new rules a new version",
            "",
        ), None
    locked_out = no_operator_problem(proposed, proposal.writer_id, snapshot.writers)
    if locked_out is not None:
        return Violation(
            ReasonCode.NO_OPERATOR,
            locked_out,
            f"[authority] operators = [{proposal.writer_id!r}] (or a registered operator)",
        ), None
    return None, proposed


def evaluate_constitution(
    proposal: Proposal,
    snapshot: Snapshot,
    current: Constitution,
    recorded_sha: str | None,
    *,
    now: str,
    gateway_id: str,
) -> tuple[Decision, Plan, Constitution | None]:
    """Decide a constitution change: a governed set by an operator writer whose one entry's body
    is the new TOML. Commit makes it the boundary's constitution (no entry enters the window)."""
    plan = Plan()
    ctx = Context(snapshot, current, now, gateway_id, lambda _: 1)
    closed = ClosedSet(proposal.set_id or proposal.id, True, (proposal,))
    view = set_view(closed, {i: 0 for i in proposal.entry_ids()}, False)
    violation, proposed = _constitution_violation(proposal, current, recorded_sha, snapshot)
    if violation is not None or proposed is None:
        assert violation is not None
        decision = plan_refusal(plan, ctx, view, violation, [])
        plan.boundary = boundary_row(snapshot)
        return decision, plan, None

    boundary = snapshot.boundary
    boundary.seq += 1
    props = set_props(ctx, view, SetStatus.RATIFIED)
    props.update(seq=boundary.seq, mode=SetMode.GOVERNED.value)
    decided = plan.add_set({"id": closed.set_id, "prev_id": boundary.last_set_id, "props": props})
    boundary.last_set_id = closed.set_id
    decided.writers.append({"id": proposal.writer_id, "kind": proposal.writer_kind.value})
    decided.proposals.append({"id": proposal.id, "status": Outcome.COMMIT.proposal_status})
    decided.index.append(
        constitution_index_props(
            ctx, closed.set_id, boundary.seq, proposal.writer_id, proposed.version
        )
    )
    reasons = ["operator_writer", "valid_constitution"]
    decided.receipts.append(
        receipt(
            ctx,
            ctx.record_id(closed.set_id, "review", 1),
            ReceiptKind.REVIEW,
            closed.set_id,
            decision=Outcome.COMMIT.value,
            reasons=reasons,
            source_writer=[proposal.writer_id],
        )
    )
    commit_id = ctx.record_id(closed.set_id, "commit")
    decided.receipts.append(
        receipt(
            ctx,
            commit_id,
            ReceiptKind.COMMIT,
            closed.set_id,
            decision=Outcome.COMMIT.value,
            source_writer=[proposal.writer_id],
            allowed_effects=[f"constitution:{current.version}->{proposed.version}"],
            refused_effects=[],
            reasons=reasons,
            state_revision=boundary.seq,
            changed_ids=[f"constitution:{proposed.version}"],
            content_digest=props["digest"],
            mode=SetMode.GOVERNED.value,
            new_constitution_version=proposed.version,
            new_constitution_sha256=proposed.sha256,
        )
    )
    plan.boundary = boundary_row(snapshot)
    decision = Decision(
        outcome=Outcome.COMMIT,
        set_id=closed.set_id,
        boundary_id=boundary.id,
        seq=boundary.seq,
        proposal_ids=(proposal.id,),
        entry_ids=(),
        receipt_id=commit_id,
        constitution_version=current.version,
    )
    return decision, plan, proposed


def boundary_row(snapshot: Snapshot) -> BoundaryRow:
    """The boundary after the batch: what ``write_plan`` writes last."""
    b = snapshot.boundary
    return {
        "seq": b.seq,
        "last_set_id": b.last_set_id,
        "live_count": b.live_count,
        "requires_count": b.requires_count,
        "committed_tokens": b.committed_tokens,
        "resident_tokens": b.resident_tokens,
        "work_seq": b.work_seq,
        "one_use_pending": list(b.one_use_pending),
    }
