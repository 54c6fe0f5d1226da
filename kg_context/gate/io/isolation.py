"""No pending proposal may block a boundary.

The gate decides a batch of sets in one write transaction. If that transaction fails with a
non-transient error (a constraint the gate did not foresee, a statement the server refuses), the
same batch would fail on every later close, from any writer: the boundary would be wedged. So
the store isolates the batch (``isolate``): it decides each set alone, in a transaction of its
own, in ledger order; a set whose own transaction still fails is rejected ``WRITE_FAILED`` with a
review and a rejection receipt, under a fresh set id, in a transaction that records only that
(``write_failed_plan``). The queue drains; the sets around the failing one are decided as usual.
Transient errors are not isolated: the driver retries them, and they surface as errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from kg_context.db.executor import QueryExecutor, Transaction
from kg_context.errors import QueryError
from kg_context.gate.pure.batch import Context
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision, boundary_row, fresh_set_id, set_view
from kg_context.gate.pure.refusal import (
    UnreadableProposal,
    plan_refusal,
    plan_unreadable,
    write_failed,
)
from kg_context.gate.pure.rows import Plan
from kg_context.gate.pure.set_constructor import ClosedSet, implicit_set_id
from kg_context.gate.pure.snapshot import Snapshot

__all__ = ["IsolationSteps", "Pending", "is_transient", "isolate", "write_failed_plan"]


def is_transient(error: QueryError) -> bool:
    """Whether Neo4j classified the failure as transient (worth retrying, not isolating)."""
    return (error.code or "").startswith("Neo.TransientError")


@dataclass(frozen=True, slots=True)
class Pending:
    """What one batch decides: closed sets, proposals the constructor could not place, pending
    proposals whose payload cannot be parsed, and whether more is pending beyond the batch."""

    sets: list[ClosedSet]
    unplaced: list[Proposal]
    unreadable: list[UnreadableProposal]
    more: bool

    @property
    def empty(self) -> bool:
        return not (self.sets or self.unplaced or self.unreadable)

    def groups(self) -> list[Pending]:
        """Each refusal and each set alone, in the order the gate decides them."""
        return [
            *(Pending([], [], [u], False) for u in self.unreadable),
            *(Pending([], [p], [], False) for p in self.unplaced),
            *(Pending([c], [], [], False) for c in self.sets),
        ]

    def restricted_to(self, pending_ids: set[str]) -> Pending:
        """The part still pending (another process may have decided the rest meanwhile)."""
        sets = []
        for closed in self.sets:
            kept = tuple(p for p in closed.proposals if p.id in pending_ids)
            if kept:
                sets.append(replace(closed, proposals=kept))
        return Pending(
            sets,
            [p for p in self.unplaced if p.id in pending_ids],
            [u for u in self.unreadable if u.id in pending_ids],
            self.more,
        )


@dataclass(frozen=True, slots=True)
class IsolationSteps:
    """The store's steps, each run by ``isolate`` in a write transaction of its own: read what
    is pending, decide one group, record one group as WRITE_FAILED."""

    pending: Callable[[Transaction], Pending]
    decide: Callable[[Transaction, Pending], list[Decision]]
    record_failed: Callable[[Transaction, Pending, str], list[Decision]]


def isolate(executor: QueryExecutor, steps: IsolationSteps) -> tuple[list[Decision], bool]:
    """Decide the pending batch one group per transaction (see the module docstring)."""
    pending = executor.write_tx(steps.pending)
    decisions: list[Decision] = []
    for group in pending.groups():
        try:
            decisions.extend(executor.write_tx(partial(_call_decide, steps, group)))
        except QueryError as failed:
            if is_transient(failed):
                raise
            decisions.extend(executor.write_tx(partial(_call_record, steps, group, str(failed))))
    return decisions, pending.more


def _call_decide(steps: IsolationSteps, group: Pending, tx: Transaction) -> list[Decision]:
    return steps.decide(tx, group)


def _call_record(
    steps: IsolationSteps, group: Pending, problem: str, tx: Transaction
) -> list[Decision]:
    return steps.record_failed(tx, group, problem)


def write_failed_plan(
    pending: Pending,
    snapshot: Snapshot,
    constitution: Constitution,
    problem: str,
    *,
    now: str,
    gateway_id: str,
) -> tuple[list[Decision], Plan]:
    """Reject everything in ``pending`` WRITE_FAILED (pure): each set, each unplaced and each
    unreadable proposal under a fresh set id, with only its record written."""
    ctx = Context(snapshot, constitution, now, gateway_id, lambda _: 1)
    plan = Plan()
    decisions = [
        plan_unreadable(plan, ctx, u, fresh_set_id(implicit_set_id([u.id])))
        for u in pending.unreadable
    ]
    alone = [ClosedSet(implicit_set_id([p.id]), False, (p,)) for p in pending.unplaced]
    for closed in [*alone, *pending.sets]:
        renamed = replace(closed, set_id=fresh_set_id(closed.set_id))
        tokens = {i: 0 for p in renamed.proposals for i in p.entry_ids()}
        view = set_view(renamed, tokens, False)
        decisions.append(plan_refusal(plan, ctx, view, write_failed(problem), []))
    plan.boundary = boundary_row(snapshot)
    return decisions, plan
