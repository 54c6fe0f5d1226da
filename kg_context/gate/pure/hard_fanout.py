"""Defensive hard fan-out, decided by the constitution's ``[hard_fanout]`` rule (pure).

A hard ``REQUIRES`` pins its target in the window for as long as both ends stand, and never
expires: a writer that declares one to everything plausibly relevant inflates the window with
every component working. The rule gives each new entry a budget of hard ``REQUIRES`` on entries
outside its own set (a decision's hard edges to the facts derived in the same set are its own
material and never count), and the set's new entries together a budget of their own (a writer
that splits its edges across several small entries of one set, each within its budget, and holds
them hard from one entry, is over the set's). An entry or a set over its budget gives up the edges
beyond it (in declared order, set order across entries) or, under ``over_budget = "all"``, every
one of them: an over-budget declaration says nothing about which of its edges is essential, and
its order is the writer's. Those edges are committed under the rule's policy and lease (soft: an
unrenewed defensive edge expires; reconstructible: it holds only while the record cannot give its
target back; its provenance is untouched), or the set halts ``DENSITY`` with the amendment that
would decide it. Counted from the set's declarations and which of its targets are its own
entries, never from what the entries say.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Residency
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, halt
from kg_context.vocabulary import OnHardFanout, ReasonCode, ResidencyPolicy

__all__ = ["RULE_SOFTEN", "Excess", "apply_hard_fanout_rule", "excess_hard", "hard_fanout"]

# What a rule-made soft edge records as its rule (in the receipts).
RULE_SOFTEN = f"hard_fanout={OnHardFanout.SOFTEN.value}"


@dataclass(frozen=True, slots=True)
class Excess:
    """One new entry's hard ``REQUIRES`` on entries outside its set that its budget, or its
    set's, does not keep hard."""

    entry_id: str
    hard_outside: int  # its hard REQUIRES on entries outside the set, the budget included
    targets: tuple[str, ...]  # the edges given up, in declared order
    positions: tuple[int, ...]  # their places among the entry's REQUIRES
    budget: tuple[str, int]  # the budget it is over: ("per_entry" or "per_set", its value)

    @property
    def over(self) -> str:
        """The budget as the receipts say it: ``2 per entry``, ``4 per set``."""
        name, value = self.budget
        return f"{value} {name.replace('_', ' ')}"


def _outside(ref: Residency, new_ids: set[str]) -> bool:
    return ref.boundary_id is not None or ref.entry_id not in new_ids


def excess_hard(view: SetView, c: Constitution) -> list[Excess]:
    """The set's new entries with hard ``REQUIRES`` on entries outside the set that ``[hard_fanout]
    per_entry``, or ``per_set`` counted over the set's entries in order, does not keep, in the
    set's order (none when the rule sets no budget, or the boundary runs append-only)."""
    rule = c.hard_fanout
    if (rule.per_entry is None and rule.per_set is None) or view.append_only:
        return []
    new_ids = view.new_ids
    every = rule.over_budget == "all"
    # Per entry: the places of its hard edges outside the set, and which of them it keeps.
    hard: list[tuple[str, list[int], list[int]]] = []
    for _proposal, entry_id, entry in view.entries:
        places = [
            i
            for i, r in enumerate(entry.requires)
            if r.policy is ResidencyPolicy.HARD and _outside(r, new_ids)
        ]
        kept = places
        if rule.per_entry is not None and len(places) > rule.per_entry:
            kept = [] if every else places[: rule.per_entry]
        hard.append((entry_id, places, kept))
    over_set = rule.per_set is not None and sum(len(k) for _, _, k in hard) > rule.per_set
    found: list[Excess] = []
    left = rule.per_set or 0
    entries = {entry_id: entry for _p, entry_id, entry in view.entries}
    for entry_id, places, kept in hard:
        budget = ("per_entry", rule.per_entry or 0)
        if over_set and rule.per_set is not None:
            within = [] if every else kept[: max(left, 0)]
            left -= len(within)
            if kept == places:  # within its own budget: it is over the set's
                budget = ("per_set", rule.per_set)
            kept = within
        given = [i for i in places if i not in kept]
        if given:
            requires = entries[entry_id].requires
            found.append(
                Excess(
                    entry_id,
                    len(places),
                    tuple(requires[i].entry_id for i in given),
                    tuple(given),
                    budget,
                )
            )
    return found


def apply_hard_fanout_rule(view: SetView, c: Constitution, _snapshot: Snapshot) -> SetView:
    """The set with the hard ``REQUIRES`` its budgets do not keep committed under the rule's
    policy and lease, named in ``softened`` (the receipts name the rule and the budget), when
    ``[hard_fanout] excess`` is ``soften``; the set itself otherwise, or when nothing is over."""
    if c.hard_fanout.excess is not OnHardFanout.SOFTEN:
        return view
    found = {x.entry_id: x for x in excess_hard(view, c)}
    if not found:
        return view
    lease = c.hard_fanout.lease_sets
    policy = ResidencyPolicy(c.hard_fanout.policy)
    entries = []
    softened: list[tuple[str, str, str]] = []
    for proposal, entry_id, entry in view.entries:
        x = found.get(entry_id)
        if x is None:
            entries.append((proposal, entry_id, entry))
            continue
        requires: list[Residency] = []
        for i, ref in enumerate(entry.requires):
            if i in x.positions:
                ref = ref.model_copy(update={"policy": policy, "lease_sets": lease})
                softened.append((entry_id, ref.entry_id, x.over))
            requires.append(ref)
        entries.append((proposal, entry_id, entry.model_copy(update={"requires": tuple(requires)})))
    return replace(view, entries=tuple(entries), softened=tuple(softened))


def hard_fanout(view: SetView, c: Constitution, _snapshot: Snapshot) -> Violation | None:
    """A new entry declares more hard ``REQUIRES`` on entries outside its set than ``[hard_fanout]
    per_entry``, or the set's new entries together more than ``per_set``, while ``excess`` is
    ``halt``: the operator decides (``DENSITY``), and the
    suggested amendment is what would decide it: the writer resubmits the excess edges soft with
    a lease, or the operator adopts ``excess = "soften"``."""
    if c.hard_fanout.excess is not OnHardFanout.HALT:
        return None
    found = excess_hard(view, c)
    if not found:
        return None
    x = found[0]
    shown = ", ".join(x.targets[:5]) + (", ..." if len(x.targets) > 5 else "")
    return halt(
        ReasonCode.DENSITY,
        f"entry {x.entry_id} declares {x.hard_outside} hard REQUIRES on entries outside its set; "
        f"[hard_fanout] {x.budget[0]} is {x.budget[1]} (excess: {shown}); "
        f'[hard_fanout] excess is "{OnHardFanout.HALT.value}"',
        f'resubmit with the REQUIRES on {shown} "{c.hard_fanout.policy}" with lease_sets = '
        f'{c.hard_fanout.lease_sets}; or [hard_fanout] excess = "{OnHardFanout.SOFTEN.value}"; '
        "or an operator approves the halt to commit them hard",
    )
