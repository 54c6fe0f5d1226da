"""Residency by reachability, walked once: the held ``REQUIRES`` edges among a boundary's standing
entries, as ``cypher/residency/reachable.cypher`` reads them (the rule of which edge holds is
there), and the walk from the roots over them in Python, every entry visited once, so its cost
is linear in the live state. ``residency.reachability`` (what should be resident) and the gate's
check of a czar set's claims (``transaction_io.load_claims``) share it.

Entries of other boundaries that a held edge reaches are read in turn (their own held edges,
never as roots), as the statement's variable-length match once followed them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kg_context.db.reader import Reader
from kg_context.vocabulary import REPLACED_STATUSES, STANDING_STATUSES, as_values

__all__ = ["HeldGraph", "Key", "walk_held"]

# An entry of the walk: an id of the boundary, or (boundary_id, id) of another boundary's entry.
Key = str | tuple[str, str]


@dataclass(slots=True)
class HeldGraph:
    """The held edges read so far, the roots, and the interfaces each entry carries."""

    boundary_id: str
    roots: list[Key] = field(default_factory=list)
    edges: dict[Key, list[Key]] = field(default_factory=dict)
    interfaces: dict[Key, list[str]] = field(default_factory=dict)
    read: set[Key] = field(default_factory=set)  # other boundaries' entries already read

    def add(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        row = rows[0]
        self.roots.extend(row["roots"])
        for source, held in zip(row["sources"], row["held"], strict=True):
            self.edges.setdefault(source, []).extend(held)
        for other in row["others"]:
            key: Key = other["id"]
            if other["boundary_id"] != self.boundary_id:
                key = (other["boundary_id"], other["id"])
                self.edges.setdefault(key, []).extend(other["held"])
            self.edges.setdefault(key, []).extend((b, i) for b, i in other["foreign"])
            self.interfaces.setdefault(key, []).extend(other["interfaces"])

    def walk(self, start: list[Key], reached: set[Key]) -> None:
        """``start`` and everything it reaches through the edges read so far, added to
        ``reached`` (``start`` is walked from even when already reached: its edges may be new)."""
        stack = list(start)
        reached.update(stack)
        while stack:
            for target in self.edges.get(stack.pop(), ()):
                if target not in reached:
                    reached.add(target)
                    stack.append(target)


def walk_held(
    reader: Reader,
    boundary_id: str,
    *,
    root_classes: list[str],
    work: int,
    default_lease: int,
    recall_max_entries: int,
    recall_max_depth: int,
    successors: bool = False,
) -> tuple[set[Key], HeldGraph]:
    """Every entry the roots of ``boundary_id`` reach through edges that hold at work seq
    ``work`` (keys), and the graph read. ``successors`` (``[roots] successors``): an edge that
    holds into a superseded or invalidated entry holds the standing entries that superseded it."""

    def read(own: bool, foreign: list[dict[str, str]]) -> list[dict[str, Any]]:
        return reader.read(
            "residency/reachable",
            boundary_id=boundary_id,
            standing=as_values(STANDING_STATUSES),
            root_classes=root_classes,
            work=work,
            default_lease=default_lease,
            recall_max_entries=recall_max_entries,
            recall_max_depth=recall_max_depth,
            own=own,  # the boundary's own entries; foreign: [{boundary_id, id}] to read
            foreign=foreign,
            successors=successors,
            replaced=as_values(REPLACED_STATUSES),
        )

    graph = HeldGraph(boundary_id)
    graph.add(read(True, []))
    reached: set[Key] = set()
    frontier: list[Key] = list(graph.roots)
    while frontier:
        graph.walk(frontier, reached)
        others = [k for k in reached if isinstance(k, tuple) and k not in graph.read]
        if others:
            graph.read.update(others)
            graph.add(read(False, [{"boundary_id": b, "id": i} for b, i in others]))
        frontier = list(others)
    return reached, graph
