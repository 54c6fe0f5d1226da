"""The invalidation walk: ``DERIVED_FROM`` forward from failed entries, graded and bounded.

Two traversals per failed entry (``cypher/invalidation/reach.cypher``: every descendant at its
least depth; ``cypher/invalidation/essential.cypher``: those reached through essential edges
only) run as two concurrent reads. A descendant reached through essential edges only is *at
risk*; one reached only through a supporting edge is *flagged*. Depth and size are bounded and
the ``Walk`` says when a bound cut it. Reads only: ``invalidation`` turns a walk into one set.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import StateError
from kg_context.gate.status_machine import may_become
from kg_context.vocabulary import EntryStatus, as_values

__all__ = ["MOVABLE", "Walk", "walk"]

# Statuses an essential descendant may move to at_risk from (the status machine decides).
MOVABLE = as_values(may_become(EntryStatus.AT_RISK))


@dataclass(frozen=True, slots=True)
class Walk:
    """What a walk found: the failed entries and every graded descendant within the bounds."""

    failed: dict[str, str]  # failed entry id -> its status when walked
    essential: dict[str, str]  # descendant reached through essential edges only -> failed root
    supporting: dict[str, str]  # descendant reached only through a supporting edge -> root
    blocked: dict[str, str]  # essential descendant whose status cannot go at_risk -> status
    depth: int  # the deepest level graded
    cut_by_depth: bool
    cut_by_size: bool
    max_depth: int
    max_nodes: int
    seq: int

    @property
    def at_risk(self) -> list[str]:
        """Descendants reached through essential edges only (sorted)."""
        return sorted(self.essential)

    @property
    def flagged(self) -> list[str]:
        """Descendants reached only through a supporting edge (sorted)."""
        return sorted(self.supporting)

    @property
    def reached(self) -> int:
        return len(self.essential) + len(self.supporting)

    @property
    def cut(self) -> bool:
        return self.cut_by_depth or self.cut_by_size


def walk(
    executor: QueryExecutor,
    boundary_id: str,
    failed: dict[str, str],
    *,
    max_depth: int,
    max_nodes: int,
) -> Walk:
    """Walk DERIVED_FROM forward from ``failed`` (id -> status). The two traversals (every
    descendant; the essential-only ones) are two read statements run concurrently, so the walk
    costs about one traversal of wall time on a server with two cores. Essential grade:
    reachable through essential edges only. Entries deeper than ``max_depth`` are cut; beyond
    ``max_nodes`` descendants the shallowest are kept (then by id). A descendant committed
    between the two reads can only come out flagged, never at risk: the safe side."""
    roots = sorted(failed)

    def reach() -> list[Record]:
        return executor.read(
            "invalidation/reach",
            roots=roots,
            boundary_id=boundary_id,
            max_depth=max_depth,
            max_nodes=max_nodes,
        )

    def essential_only() -> list[Record]:
        return executor.read(
            "invalidation/essential",
            roots=roots,
            boundary_id=boundary_id,
            max_depth=max_depth,
            movable=MOVABLE,
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        reach_rows, essential_rows = pool.submit(reach), pool.submit(essential_only)
        rows = reach_rows.result()
        graded_by_root = {row["root"]: row for row in essential_rows.result()}
    if rows:
        seq = rows[0]["seq"]
    else:
        state = executor.read("invalidation/boundary_seq", boundary_id=boundary_id)
        if not state:
            raise StateError(f"no boundary {boundary_id}")
        seq = state[0]["seq"]
    essential: dict[str, str] = {}
    supporting: dict[str, str] = {}
    blocked: dict[str, str] = {}
    cut_by_depth = cut_by_size = False
    depth = 0
    for row in rows:  # one per failed entry, in id order: the first root to reach wins
        root = row["root"]
        graded = graded_by_root.get(root)
        deepest_essential = graded["essential_deepest"] if graded else 0
        depth = max(depth, row["depth"])
        cut_by_depth |= max(row["deepest"], deepest_essential) > max_depth
        cut_by_size |= row["within_count"] > max_nodes
        kept = row["kept"]
        kept_set = set(kept)
        graded_ids: set[str] = set()
        if graded:
            for entry_id in graded["movable"]:
                if entry_id in kept_set:
                    graded_ids.add(entry_id)
                    essential.setdefault(entry_id, root)
            for entry_id, status in zip(graded["blocked"], graded["blocked_statuses"], strict=True):
                if entry_id in kept_set:
                    graded_ids.add(entry_id)
                    essential.setdefault(entry_id, root)
                    blocked[entry_id] = status
        for entry_id in kept:
            if entry_id not in graded_ids and entry_id not in supporting:
                supporting[entry_id] = root
    for entry_id in failed:
        essential.pop(entry_id, None)
        supporting.pop(entry_id, None)
        blocked.pop(entry_id, None)
    for entry_id in essential:
        supporting.pop(entry_id, None)
    if len(essential) + len(supporting) > max_nodes:  # several failed entries: bound by id
        cut_by_size = True
        kept = set(sorted([*essential, *supporting])[:max_nodes])
        essential = {i: r for i, r in essential.items() if i in kept}
        supporting = {i: r for i, r in supporting.items() if i in kept}
    return Walk(
        failed=dict(failed),
        essential=essential,
        supporting=supporting,
        blocked={i: s for i, s in blocked.items() if i in essential},
        depth=depth,
        cut_by_depth=cut_by_depth,
        cut_by_size=cut_by_size,
        max_depth=max_depth,
        max_nodes=max_nodes,
        seq=seq,
    )
