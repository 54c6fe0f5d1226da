"""Undeclared revisions, decided by the constitution's ``[on_revision]`` rule (pure).

A new live entry on a (class, key) slot where a live entry stands, with no declared supersession,
is superseded into place, halted, or left to stand beside it, per class; the slot's standing
entries are read from the graph, never from what a writer wrote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Supersession
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, halt
from kg_context.vocabulary import EntryStatus, OnRevision, ReasonCode

__all__ = [
    "RULE_SUPERSEDE",
    "Revision",
    "apply_revision_rule",
    "revision_slots",
    "revisions",
    "undeclared_revision",
]

# What a rule-made supersession records as its rule (on the SUPERSEDES edge, in the receipts).
RULE_SUPERSEDE = f"on_revision={OnRevision.SUPERSEDE.value}"


@dataclass(frozen=True, slots=True)
class Revision:
    """One new entry that revises standing entries of its slot without declaring it."""

    entry_id: str
    entry_class: str
    key: str
    rule: OnRevision
    revises: tuple[str, ...]  # the standing entries of the slot, by id


def revision_slots(sets: Sequence[ClosedSet], constitution: Constitution) -> list[dict[str, str]]:
    """The (class, key) slots of the sets' new entries whose class has a rule other than stand
    (what the snapshot reads the standing entries of), sorted."""
    slots = {
        (e.entry_class, e.key)
        for closed in sets
        for p in closed.proposals
        for e in p.entries
        if constitution.revision_rule(e.entry_class) is not OnRevision.STAND
    }
    return [{"class": c, "key": k} for c, k in sorted(slots)]


def revisions(view: SetView, constitution: Constitution, snapshot: Snapshot) -> list[Revision]:
    """The set's undeclared revisions under the constitution's rules (stand excluded), in the
    set's order."""
    if view.append_only:
        return []
    declared = {s.entry_id for _, _, e in view.entries for s in e.supersedes}
    declared.update(t.entry_id for _, t in view.transitions)
    seen: set[tuple[str, str]] = set()
    found: list[Revision] = []
    for _proposal, entry_id, entry in view.entries:
        rule = constitution.revision_rule(entry.entry_class)
        slot = (entry.entry_class, entry.key)
        if rule is OnRevision.STAND or view.new_status[entry_id] is not EntryStatus.LIVE:
            continue
        if slot in seen:
            continue  # the first new entry of the slot in the set carries the rule
        seen.add(slot)
        standing = [e.id for e in snapshot.on_slot(*slot) if e.id not in declared]
        if standing:
            found.append(Revision(entry_id, entry.entry_class, entry.key, rule, tuple(standing)))
    return found


def apply_revision_rule(view: SetView, constitution: Constitution, snapshot: Snapshot) -> SetView:
    """The set with the supersessions the ``supersede`` rule makes added to its new entries, as
    if declared (reason ``rule: on_revision=supersede``), and named in ``rule_made``; the set
    itself when the rule makes none."""
    made = {
        r.entry_id: r.revises
        for r in revisions(view, constitution, snapshot)
        if r.rule is OnRevision.SUPERSEDE
    }
    if not made:
        return view
    entries = tuple(
        (
            proposal,
            entry_id,
            entry.model_copy(
                update={
                    "supersedes": (
                        *entry.supersedes,
                        *(
                            Supersession(entry_id=old, reason=f"rule: {RULE_SUPERSEDE}")
                            for old in made[entry_id]
                        ),
                    )
                }
            )
            if entry_id in made
            else entry,
        )
        for proposal, entry_id, entry in view.entries
    )
    pairs = frozenset((new, old) for new, olds in made.items() for old in olds)
    return replace(view, entries=entries, rule_made=pairs)


def undeclared_revision(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """A new entry of a class whose rule is ``halt`` revises standing entries of its slot
    without declaring it: the operator decides (``UNDECLARED_REVISION``), and the suggested
    amendment is the rule that would have decided it."""
    for r in revisions(view, c, snapshot):
        if r.rule is not OnRevision.HALT:
            continue
        shown = ", ".join(r.revises[:5]) + (", ..." if len(r.revises) > 5 else "")
        return halt(
            ReasonCode.UNDECLARED_REVISION,
            f"entry {r.entry_id} (class {r.entry_class}) is a new entry on key {r.key!r}, where "
            f"live {shown} stand(s), and declares no supersession of it; "
            f"[on_revision] {r.entry_class} is {r.rule.value!r}",
            f'[on_revision] {r.entry_class} = "{OnRevision.SUPERSEDE.value}" (or "stand"); or '
            "declare the supersession, or an operator approves the halt to let both stand",
        )
    return None
