"""The set constructor: pending proposals → the minimal closed sets the gate evaluates (pure).

Rule (seed 002, "Set construction"): a pending set is the minimal closed group of pending
proposals that share a declared target or a dependency inside the constitution's window (a count
of submissions), or that a writer grouped under one set id. A proposal with neither a set id nor
a target cannot be placed and is rejected. Two explicit set ids touching one target inside one
window is fragmentation: both are halted together (``FRAGMENTATION``).
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from kg_context.gate.contracts import Proposal

__all__ = ["ClosedSet", "Construction", "construct_sets", "implicit_set_id"]


@dataclass(frozen=True, slots=True)
class ClosedSet:
    """One closed set: its id, whether a writer named it, and its proposals in submission order."""

    set_id: str
    explicit: bool
    proposals: tuple[Proposal, ...]
    fragmented_with: tuple[str, ...] = ()

    @property
    def targets(self) -> frozenset[str]:
        return frozenset(t for p in self.proposals for t in p.targets)


@dataclass(frozen=True, slots=True)
class Construction:
    sets: list[ClosedSet] = field(default_factory=list)
    unplaced: list[Proposal] = field(default_factory=list)


def implicit_set_id(proposal_ids: list[str]) -> str:
    """A deterministic id for a constructed set: the same proposals always make the same set."""
    digest = hashlib.sha256("\n".join(sorted(proposal_ids)).encode("utf-8")).hexdigest()
    return f"set-{digest[:24]}"


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _dependencies(proposal: Proposal) -> set[str]:
    refs = {entry_id for entry in proposal.entries for entry_id in entry.references()}
    return refs | {t.entry_id for t in proposal.transitions}


def construct_sets(pending: list[Proposal], window: int) -> Construction:
    """Group pending proposals (in submission order) into closed sets, in ledger order."""
    unplaced = [p for p in pending if p.set_id is None and not p.targets]
    placed = [p for p in pending if p.set_id is not None or p.targets]
    n = len(placed)
    uf = _UnionFind(n)

    # A writer's explicit grouping.
    first_with_id: dict[str, int] = {}
    for i, proposal in enumerate(placed):
        if proposal.set_id is not None:
            uf.union(i, first_with_id.setdefault(proposal.set_id, i))

    # Shared targets and dependencies inside the window.
    producers: dict[str, int] = {}
    for i, proposal in enumerate(placed):
        for entry_id in proposal.entry_ids():
            producers[entry_id] = i
    by_target: dict[str, list[int]] = defaultdict(list)
    for i, proposal in enumerate(placed):
        for target in proposal.targets:
            by_target[target].append(i)
    fragment_links: list[tuple[int, int]] = []

    def link(a: int, b: int) -> None:
        if abs(a - b) >= window:
            return
        id_a, id_b = placed[a].set_id, placed[b].set_id
        if id_a is not None and id_b is not None and id_a != id_b:
            fragment_links.append((a, b))  # two explicit sets: never merged, halted together
            return
        uf.union(a, b)

    for members in by_target.values():
        for a, b in itertools.pairwise(members):
            link(a, b)
    for i, proposal in enumerate(placed):
        for entry_id in _dependencies(proposal):
            j = producers.get(entry_id)
            if j is not None and j != i:
                id_i, id_j = proposal.set_id, placed[j].set_id
                if id_i is not None and id_j is not None and id_i != id_j:
                    continue  # explicit sets depending on each other: committed in order
                link(j, i)

    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        groups[uf.find(i)].append(i)

    set_of_group: dict[int, str] = {}
    closed: dict[int, ClosedSet] = {}
    for root, members in groups.items():
        proposals = tuple(placed[i] for i in members)
        explicit_ids = [p.set_id for p in proposals if p.set_id is not None]
        set_id = explicit_ids[0] if explicit_ids else implicit_set_id([p.id for p in proposals])
        set_of_group[root] = set_id
        # An implicit proposal bridging two explicit sets merged them: that is fragmentation too.
        bridged = tuple(sorted(set(explicit_ids) - {set_id}))
        closed[root] = ClosedSet(set_id, bool(explicit_ids), proposals, bridged)

    # Fragmentation: explicit sets sharing a target inside the window halt together.
    partners: dict[int, set[str]] = defaultdict(set)
    for a, b in fragment_links:
        ra, rb = uf.find(a), uf.find(b)
        if ra != rb:
            partners[ra].add(set_of_group[rb])
            partners[rb].add(set_of_group[ra])
    for root, others in partners.items():
        current = closed[root]
        fragmented = tuple(sorted(others | set(current.fragmented_with)))
        closed[root] = ClosedSet(current.set_id, current.explicit, current.proposals, fragmented)

    ordered = sorted(closed.items(), key=lambda item: min(groups[item[0]]))
    return Construction(sets=[c for _, c in ordered], unplaced=unplaced)
