"""Defensive hard fan-out, decided by the constitution's ``[hard_fanout]`` rule (pure).

A hard ``REQUIRES`` pins its target in the window for as long as both ends stand, and never
expires: a writer that declares one to everything plausibly relevant inflates the window with
every component working. The rule gives each new entry a budget of hard ``REQUIRES`` on entries
outside its own set (a decision's hard edges to the facts derived in the same set are its own
material and never count), taken in the entry's declared order; the edges beyond it are committed
under the rule's policy and lease (soft: an unrenewed defensive edge expires; reconstructible: it
holds only while the record cannot give its target back; its provenance is untouched),
or the set halts ``DENSITY`` with the amendment that would decide it. Counted from the set's
declarations and which of its targets are its own entries, never from what the entries say.
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
    """One new entry's hard ``REQUIRES`` on entries outside its set beyond the budget."""

    entry_id: str
    hard_outside: int  # its hard REQUIRES on entries outside the set, the budget included
    targets: tuple[str, ...]  # the edges beyond the budget, in declared order


def _outside(ref: Residency, new_ids: set[str]) -> bool:
    return ref.boundary_id is not None or ref.entry_id not in new_ids


def excess_hard(view: SetView, c: Constitution) -> list[Excess]:
    """The set's new entries whose hard ``REQUIRES`` on entries outside the set exceed
    ``[hard_fanout] per_entry``, in the set's order (none when the rule sets no budget, or the
    boundary runs append-only)."""
    budget = c.hard_fanout.per_entry
    if budget is None or view.append_only:
        return []
    new_ids = view.new_ids
    found: list[Excess] = []
    for _proposal, entry_id, entry in view.entries:
        hard = [
            r for r in entry.requires if r.policy is ResidencyPolicy.HARD and _outside(r, new_ids)
        ]
        if len(hard) > budget:
            found.append(Excess(entry_id, len(hard), tuple(r.entry_id for r in hard[budget:])))
    return found


def apply_hard_fanout_rule(view: SetView, c: Constitution, _snapshot: Snapshot) -> SetView:
    """The set with the hard ``REQUIRES`` beyond each entry's budget committed under the rule's
    policy and lease, named in ``softened`` (the receipts name the rule), when ``[hard_fanout]
    excess`` is ``soften``; the set itself otherwise, or when nothing exceeds the budget."""
    if c.hard_fanout.excess is not OnHardFanout.SOFTEN:
        return view
    found = excess_hard(view, c)
    if not found:
        return view
    budget = c.hard_fanout.per_entry or 0
    lease = c.hard_fanout.lease_sets
    policy = ResidencyPolicy(c.hard_fanout.policy)
    by_entry = {x.entry_id for x in found}
    new_ids = view.new_ids
    entries = []
    softened: list[tuple[str, str]] = []
    for proposal, entry_id, entry in view.entries:
        if entry_id not in by_entry:
            entries.append((proposal, entry_id, entry))
            continue
        kept = 0
        requires: list[Residency] = []
        for ref in entry.requires:
            if ref.policy is ResidencyPolicy.HARD and _outside(ref, new_ids):
                kept += 1
                if kept > budget:
                    ref = ref.model_copy(update={"policy": policy, "lease_sets": lease})
                    softened.append((entry_id, ref.entry_id))
            requires.append(ref)
        entries.append((proposal, entry_id, entry.model_copy(update={"requires": tuple(requires)})))
    return replace(view, entries=tuple(entries), softened=tuple(softened))


def hard_fanout(view: SetView, c: Constitution, _snapshot: Snapshot) -> Violation | None:
    """A new entry declares more hard ``REQUIRES`` on entries outside its set than ``[hard_fanout]
    per_entry`` while ``excess`` is ``halt``: the operator decides (``DENSITY``), and the
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
        f"[hard_fanout] per_entry is {c.hard_fanout.per_entry} (excess: {shown}); "
        f'[hard_fanout] excess is "{OnHardFanout.HALT.value}"',
        f'resubmit with the REQUIRES on {shown} "{c.hard_fanout.policy}" with lease_sets = '
        f'{c.hard_fanout.lease_sets}; or [hard_fanout] excess = "{OnHardFanout.SOFTEN.value}"; '
        "or an operator approves the halt to commit them hard",
    )
