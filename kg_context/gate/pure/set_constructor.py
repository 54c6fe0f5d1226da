"""The set constructor: pending proposals → the minimal closed sets the gate evaluates (pure).

A pending set is the minimal closed group of pending proposals that share a declared target or a
dependency inside the constitution's window, or that a writer grouped under one set id; a
proposal with neither is rejected. The czar's compaction proposals form sets of their own.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from kg_context.gate.pure.contracts import Proposal
from kg_context.vocabulary import SetKind

__all__ = ["ClosedSet", "Construction", "construct_sets", "implicit_set_id"]


@dataclass(frozen=True, slots=True)
class ClosedSet:
    """One closed set: its id, whether a writer named it, and its proposals in submission order."""

    set_id: str
    explicit: bool
    proposals: tuple[Proposal, ...]

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
    """Union-find over proposal indices that never joins two different explicit set ids."""

    def __init__(self, placed: list[Proposal]) -> None:
        self.parent = list(range(len(placed)))
        self.explicit: list[str | None] = [p.set_id for p in placed]
        # Compaction proposals join only their own set id (``join``).
        self.sealed = [p.kind is SetKind.COMPACTION for p in placed]

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        """Union by a shared target or dependency: never into or out of a compaction set."""
        if not (self.sealed[a] or self.sealed[b]):
            self.union(a, b)

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        ida, idb = self.explicit[ra], self.explicit[rb]
        if ra == rb or (ida is not None and idb is not None and ida != idb):
            return
        root, child = min(ra, rb), max(ra, rb)
        self.parent[child] = root
        self.explicit[root] = ida if ida is not None else idb


def _dependencies(proposal: Proposal) -> set[str]:
    refs = {entry_id for entry in proposal.entries for entry_id in entry.references()}
    return refs | {t.entry_id for t in proposal.transitions}


def construct_sets(pending: list[Proposal], window: int) -> Construction:
    """Group pending proposals (in submission order) into closed sets, in ledger order."""
    unplaced = [p for p in pending if p.set_id is None and not p.targets]
    placed = [p for p in pending if p.set_id is not None or p.targets]
    uf = _UnionFind(placed)

    # A writer's explicit grouping.
    first_with_id: dict[str, int] = {}
    for i, proposal in enumerate(placed):
        if proposal.set_id is not None:
            uf.union(i, first_with_id.setdefault(proposal.set_id, i))

    # Shared targets and dependencies inside the window (never joining two explicit sets).
    producers: dict[str, int] = {}
    for i, proposal in enumerate(placed):
        for entry_id in proposal.entry_ids():
            producers[entry_id] = i
    by_target: dict[str, list[int]] = defaultdict(list)
    for i, proposal in enumerate(placed):
        for target in proposal.targets:
            by_target[target].append(i)
    for members in by_target.values():
        for a, b in itertools.pairwise(members):
            if abs(a - b) < window:
                uf.join(a, b)
    for i, proposal in enumerate(placed):
        for entry_id in _dependencies(proposal):
            j = producers.get(entry_id)
            if j is not None and j != i and abs(i - j) < window:
                uf.join(j, i)

    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(placed)):
        groups[uf.find(i)].append(i)
    closed = []
    for members in groups.values():
        proposals = tuple(placed[i] for i in members)
        explicit_ids = [p.set_id for p in proposals if p.set_id is not None]
        set_id = explicit_ids[0] if explicit_ids else implicit_set_id([p.id for p in proposals])
        closed.append((min(members), ClosedSet(set_id, bool(explicit_ids), proposals)))
    return Construction(
        sets=[c for _, c in sorted(closed, key=lambda item: item[0])], unplaced=unplaced
    )
