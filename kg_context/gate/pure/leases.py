"""Lease renewals a commit causes, planned from the set's own declarations (pure).

A standing entry of a work set renews the leases of the edges into an entry it requires or is
derived from; what a writer says in text, failed attempts, and the czar's sets renew nothing.
"""

from __future__ import annotations

from collections.abc import Collection

from kg_context.gate.pure.authority import operator_problem
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.rows import Plan
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, reject
from kg_context.vocabulary import (
    STANDING_STATUSES,
    LeaseRenewalKind,
    ReasonCode,
    SetKind,
    WriterKind,
)

__all__ = [
    "foundational_mark",
    "is_work",
    "plan_foundational",
    "plan_renewals",
    "standing_uses",
]


def is_work(view: SetView) -> bool:
    """Whether a set is the boundary's work (it advances ``work_seq``, the lease clock, and may
    renew leases): every set but a compaction set or a set a czar wrote."""
    return not any(
        p.kind is SetKind.COMPACTION or p.writer_kind is WriterKind.CZAR
        for p in view.closed.proposals
    )


def foundational_mark(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """A foundational mark is an operator's declaration: only a writer of kind operator that the
    constitution's ``[authority] operators`` names may declare one (decided from the
    constitution, never from the writer's text), and only on a standing entry of the boundary.
    Anything else is rejected ``FOUNDATIONAL_MARK`` and changes nothing."""
    for p in view.closed.proposals:
        if not p.foundational:
            continue
        problem = operator_problem(c, p.writer_id)
        if p.writer_kind is not WriterKind.OPERATOR:
            problem = f"writer {p.writer_id} writes as {p.writer_kind.value}, not as an operator"
        if problem is not None:
            return reject(
                ReasonCode.FOUNDATIONAL_MARK,
                f"only a named operator marks entries foundational: {problem}",
            )
        for entry_id in p.foundational:
            state = snapshot.entries.get(entry_id)
            if state is None or state.status not in STANDING_STATUSES:
                status = "does not exist" if state is None else f"is {state.status}"
                return reject(
                    ReasonCode.FOUNDATIONAL_MARK,
                    f"entry {entry_id} {status}; only a standing entry can be foundational",
                )
    return None


def plan_foundational(plan: Plan, view: SetView, seq: int, work: int) -> None:
    """The foundational marks of a committed (operator) set (``gate/write_plan``)."""
    for p in view.closed.proposals:
        for entry_id in p.foundational:
            plan.foundational.append(
                {
                    "entry_id": entry_id,
                    "by": p.writer_id,
                    "set_id": view.closed.set_id,
                    "seq": seq,
                    "work": work,
                }
            )


def standing_uses(view: SetView, roots: Collection[str]) -> set[str]:
    """The set's new entries that stand in the window on their own: standing entries of a root
    class (``roots``), and the new entries they require, transitively, within the set. Only
    these renew a lease: a throwaway derivation that nothing holds is retired by the czar as
    unreachable, and what it used must not stay pinned by it."""
    standing = {
        entry_id
        for _, entry_id, _ in view.entries
        if view.new_status[entry_id] in STANDING_STATUSES
    }
    requires = {
        entry_id: [r.entry_id for r in entry.requires if r.boundary_id is None]
        for _, entry_id, entry in view.entries
    }
    held = [
        entry_id
        for _, entry_id, entry in view.entries
        if entry_id in standing and entry.entry_class in roots
    ]
    found = set(held)
    while held:
        for target in requires.get(held.pop(), ()):
            if target in standing and target not in found:
                found.add(target)
                held.append(target)
    return found


def plan_renewals(
    plan: Plan, view: SetView, seq: int, work: int, roots: Collection[str] = ()
) -> None:
    """The renewals the commit of ``view`` at ``seq`` (work seq ``work``) causes: by its standing
    uses only (``standing_uses``; ``roots``: the constitution's root classes)."""
    if not is_work(view):
        return
    set_id = view.closed.set_id
    seen: set[tuple[str, str]] = set()
    own = view.new_ids
    holding = standing_uses(view, roots)
    for _, entry_id, entry in view.entries:
        if entry_id not in holding:
            continue  # a failed attempt, or material nothing holds: recorded, renews nothing
        found = [
            (r.entry_id, LeaseRenewalKind.LIVE_REFERENCE)
            for r in entry.requires
            if r.boundary_id is None
        ]
        found += [
            (d.entry_id, LeaseRenewalKind.USE) for d in entry.derived_from if d.boundary_id is None
        ]
        for target, kind in found:
            if (entry_id, target) in seen or target in own:
                continue
            seen.add((entry_id, target))
            plan.renewals.append(
                {
                    "set_id": set_id,
                    "seq": seq,
                    "work": work,
                    "by": entry_id,
                    "to": target,
                    "kind": kind.value,
                }
            )
