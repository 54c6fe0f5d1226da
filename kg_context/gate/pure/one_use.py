"""A recall copy's one use (pure): the work set that ends a copy's own lease is its use, and
the copies nothing keeps leave the window with that set, in its transaction (unless the set cites
them, an operator marked them foundational, or a standing entry still holds them).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kg_context.gate.pure.snapshot import Holder, OneUseCopy, Snapshot
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import STANDING_STATUSES, SetKind

__all__ = ["SpentCopy", "spent_copies", "track_copies"]


@dataclass(frozen=True, slots=True)
class SpentCopy:
    """A copy whose one use the set spent, with the facts it was decided from."""

    entry_id: str
    justification: tuple[str, ...]


def track_copies(snapshot: Snapshot, view: SetView, work: int, roots: Collection[str]) -> None:
    """What a committed set adds for the later sets of its batch (as if it had committed in a
    transaction of its own): the copies it creates (a recall set's, or those the constitution's
    ``[on_dependency]`` rule made in any set), and the edges its entries hold copies by."""
    recall = view.closed.proposals[0].kind is SetKind.RECALL
    made = view.rehydrated_copies
    if recall or made:
        for _, entry_id, entry in view.entries:
            if not recall and entry_id not in made:
                continue
            standing = view.new_status[entry_id] in STANDING_STATUSES
            if entry.expires_after == 1 and entry.entry_class not in roots and standing:
                snapshot.one_use[entry_id] = OneUseCopy(entry_id, work + entry.expires_after)
        snapshot.boundary.one_use_pending = sorted(snapshot.one_use)
    for _, entry_id, entry in view.entries:
        if view.new_status[entry_id] not in STANDING_STATUSES:
            continue
        for req in entry.requires:
            copy = snapshot.one_use.get(req.entry_id) if req.boundary_id is None else None
            if copy is None or req.entry_id in view.new_ids:
                continue
            until = work + req.lease_sets if req.lease_sets else None
            holder = Holder(entry_id, req.policy.value, until)
            snapshot.one_use[req.entry_id] = OneUseCopy(
                copy.id, copy.expires_after_seq, copy.foundational, (*copy.held_by, holder)
            )


def spent_copies(snapshot: Snapshot, view: SetView, work: int) -> list[SpentCopy]:
    """The copies that leave with the work set ``view`` at work seq ``work``: every copy whose own
    lease ends by ``work`` is decided once (it leaves, or stays held), in id order."""
    due = sorted(c for c, copy in snapshot.one_use.items() if copy.expires_after_seq <= work)
    copies = {c: snapshot.one_use.pop(c) for c in due}
    if due:
        snapshot.boundary.one_use_pending = sorted(snapshot.one_use)
    cited = view.referenced
    leaving: set[str] = set()
    for c in due:
        state = snapshot.entries.get(c)
        standing = state is not None and state.resident and state.status in STANDING_STATUSES
        if standing and c not in cited and not copies[c].foundational:
            leaving.add(c)

    def held(c: str) -> bool:
        for h in copies[c].held_by:
            holder = snapshot.entries.get(h.entry_id)
            if holder is not None and holder.status not in STANDING_STATUSES:
                continue
            if h.entry_id not in leaving and h.holds_at(work):
                return True
        return False

    changed = True
    while changed:  # what a kept entry holds is kept: the greatest set that nothing keeps
        kept = {c for c in leaving if held(c)}
        changed = bool(kept)
        leaving -= kept
    return [
        SpentCopy(
            c,
            (
                f"expires_after_seq {copies[c].expires_after_seq} <= work seq {work}",
                f"set {view.closed.set_id} neither requires nor derives from it",
                "no standing entry that stays holds it by a REQUIRES edge that holds",
            ),
        )
        for c in sorted(leaving)
    ]
