"""What every predicate of the constitution's library shares (pure): the closed set as the gate
views it (``SetView``), a predicate's refusal (``Violation``) and the shape of a check.

The predicates themselves are split by concern: ``predicates`` (declarations, transitions, the
registries ``REJECTS`` and ``HALTS``), ``authority`` (writer kinds, the czar's cases),
``graph_shape`` (dependencies: standing, cycles, other boundaries), ``adoption`` (verse and
cross-boundary adoption receipts) and ``fragmentation`` (set-level invariants over a set's
fragment group).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import EntryProposal, Proposal, Transition
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.vocabulary import EntryStatus, Outcome, ReasonCode

__all__ = ["Check", "SetView", "Violation", "halt", "reject"]


@dataclass(frozen=True, slots=True)
class Violation:
    """A predicate's refusal: the reason code (which says reject or halt), a detail naming what
    was found, and a suggested constitution amendment (empty where none applies). A threshold
    predicate also names, typed, the constitution parameter it tripped on (``parameter``, a
    dotted path such as ``density.max_set_fanout``) and the value it measured (``observed``):
    recorded on the halt, they are what ``record.amendments`` groups halt classes by."""

    reason_code: ReasonCode
    detail: str
    suggested_amendment: str
    parameter: str | None = None
    observed: float | None = None

    @property
    def outcome(self) -> Outcome:
        return self.reason_code.outcome


@dataclass(frozen=True)
class SetView:
    """A closed set with what the predicates need precomputed."""

    closed: ClosedSet
    entries: tuple[tuple[Proposal, str, EntryProposal], ...]  # (proposal, entry id, entry)
    tokens: dict[str, int]  # entry id -> tokens
    append_only: bool
    # The supersessions the constitution's [on_revision] rule added, as (new id, old id): the
    # gate checks them as declared ones and names the rule where they are recorded.
    rule_made: frozenset[tuple[str, str]] = frozenset()
    # The dependencies on retired entries the [on_dependency] rule rehydrated, as (dependent id,
    # original id, copy id): the copies are entries of the set the rule made.
    rehydrated: tuple[tuple[str, str, str], ...] = ()
    # The dependencies on recall copies the [on_dependency] recall_copy rule moved to the copies'
    # sources, as (dependent id, copy id, source id): a retired source comes back with the set.
    sourced: tuple[tuple[str, str, str], ...] = ()
    # The hard REQUIRES beyond an entry's or the set's [hard_fanout] budget the rule committed
    # soft, as (dependent id, target id, the budget: "2 per entry", "4 per set").
    softened: tuple[tuple[str, str, str], ...] = ()

    @property
    def rehydrated_copies(self) -> frozenset[str]:
        return frozenset(c for _, _, c in self.rehydrated)

    @property
    def copy_source_ids(self) -> frozenset[str]:
        """The sources the set's dependencies on recall copies were moved to (standing once it
        commits)."""
        return frozenset(s for _, _, s in self.sourced)

    @property
    def new_ids(self) -> set[str]:
        return {entry_id for _, entry_id, _ in self.entries}

    @cached_property
    def transitions(self) -> list[tuple[Proposal, Transition]]:
        return [(p, t) for p in self.closed.proposals for t in p.transitions]

    @cached_property
    def new_status(self) -> dict[str, EntryStatus]:
        """The status each new entry is created with (``explored`` when its attributes say so)."""
        return {
            entry_id: EntryStatus.EXPLORED
            if entry.attributes.get("explored") is True
            else EntryStatus.LIVE
            for _, entry_id, entry in self.entries
        }

    @cached_property
    def fanout(self) -> int:
        """The edges the set's new entries declare, those a rule made included (the density
        fan-out)."""
        return sum(
            len(e.supersedes) + len(e.derived_from) + len(e.requires) for _, _, e in self.entries
        )

    @property
    def declared_fanout(self) -> int:
        """The edges its writers declared (what the set's record keeps: a halted set decided
        again under another rule is the same set)."""
        return self.fanout - len(self.rule_made) - len(self.rehydrated_copies)

    @cached_property
    def referenced(self) -> frozenset[str]:
        """Every entry id of the own boundary the set declares a relation to: its entries'
        bare references, its transitions and what it revalidates."""
        refs = {ref for _, _, e in self.entries for ref in e.references()}
        refs.update(t.entry_id for _, t in self.transitions)
        refs.update(r for p in self.closed.proposals for r in p.revalidates)
        return frozenset(refs - self.new_ids)


Check = Callable[[SetView, Constitution, Snapshot], Violation | None]


def reject(code: ReasonCode, detail: str, amendment: str = "") -> Violation:
    assert code.outcome is Outcome.REJECT, code
    return Violation(code, detail, amendment)


def halt(
    code: ReasonCode,
    detail: str,
    amendment: str,
    *,
    parameter: str | None = None,
    observed: float | None = None,
) -> Violation:
    assert code.outcome is Outcome.HALT, code
    return Violation(code, detail, amendment, parameter, observed)
