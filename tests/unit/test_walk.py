"""The invalidation walk against a reference over random DAGs: the same grades, depths, roots and
bounds in one read of the whole reach and in pages, whatever the page size, with one statement
per page; a reach past the one read's bound is walked in pages.

The executor here answers ``invalidation/reach``, ``reach_essential`` and ``children`` from an
in-memory graph (the statements themselves run against the real Neo4j in
tests/integration/test_invalidation.py)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from kg_context.db.catalog import default_catalog
from kg_context.db.executor import Record
from kg_context.record.walk import MOVABLE, _any, _one_read, _one_root, walk

T = TypeVar("T")
Edges = dict[str, list[tuple[str, bool]]]  # child -> [(parent, essential)]


class GraphExecutor:
    """Answers the walk's statements from ``edges`` and counts the pages it was asked."""

    database = "neo4j"

    def __init__(self, edges: Edges, status: dict[str, str]) -> None:
        self.children: dict[str, list[tuple[str, bool]]] = {}
        for child, parents in edges.items():
            for parent, essential in parents:
                self.children.setdefault(parent, []).append((child, essential))
        self.status = status
        self.pages: list[int] = []
        self.caps: list[int] = []
        self.one_reads: list[int] = []

    def _reach(
        self, roots: list[str], limit: int, essential_only: bool, movable: frozenset[str]
    ) -> Record:
        """Per failed entry in turn, its descendants breadth first at their least depth (as
        the pruned expand streams them), the first ``limit`` (index, id, depth) rows."""
        rows: list[tuple[int, str, int]] = []
        for index, root in enumerate(roots):
            seen, frontier, depth = {root}, [root], 0
            while frontier and len(rows) < limit:
                depth += 1
                level = []
                for parent in frontier:
                    for child, essential in self.children.get(parent, []):
                        if child not in seen and (essential or not essential_only):
                            seen.add(child)
                            level.append(child)
                rows += [(index, child, depth) for child in level]
                frontier = level
        rows = rows[:limit]
        row: Record = {
            "roots": [i for i, _, _ in rows],
            "ids": [c for _, c, _ in rows],
            "depths": [d for _, _, d in rows],
        }
        if essential_only:
            unmovable = [
                (c, status)
                for _, c, _ in rows
                if (status := self.status.get(c, "live")) not in movable
            ]
            row["unmovable_ids"] = [c for c, _ in unmovable]
            row["unmovable_statuses"] = [status for _, status in unmovable]
        else:
            row["seq"] = 7
        return row

    def run(self, name: str, /, **params: Any) -> list[Record]:
        default_catalog()[name].bind(params)
        if name == "invalidation/boundary_seq":
            return [{"seq": 7}]
        if name in ("invalidation/reach", "invalidation/reach_essential"):
            self.one_reads.append(params["limit"])
            essential_only = name.endswith("essential")
            movable = frozenset(params.get("movable", ()))
            return [self._reach(params["roots"], params["limit"], essential_only, movable)]
        assert name == "invalidation/children"
        self.pages.append(len(params["parents"]))
        self.caps.append(params["cap"])
        rows = []
        for p in params["parents"]:
            children = sorted(self.children.get(p, []))[: params["cap"]]
            rows.append(
                {
                    "parent": p,
                    "children": [c for c, _ in children],
                    "essential": [e for _, e in children],
                    "statuses": [self.status.get(c, "live") for c, _ in children],
                }
            )
        return rows

    def read(self, name: str, /, **params: Any) -> list[Record]:
        return self.run(name, **params)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        raise AssertionError("the walk only reads")

    def read_tx(self, work: Callable[[Any], T]) -> T:
        return work(self)

    def write_tx(self, work: Callable[[Any], T]) -> T:
        raise AssertionError("the walk only reads")


def _bfs(edges: Edges, roots: list[str], essential_only: bool) -> dict[str, tuple[int, str]]:
    """Reference: least depth and nearest root (ties by root id) of every descendant."""
    children: dict[str, list[str]] = {}
    for child, parents in edges.items():
        for parent, essential in parents:
            if essential or not essential_only:
                children.setdefault(parent, []).append(child)
    best: dict[str, tuple[int, str]] = {r: (0, r) for r in roots}
    queue = deque(sorted(roots))
    while queue:
        node = queue.popleft()
        depth, root = best[node]
        for child in children.get(node, []):
            candidate = (depth + 1, root)
            if child not in best:
                best[child] = candidate
                queue.append(child)
            elif best[child][0] == depth + 1 and root < best[child][1]:
                best[child] = candidate
    return {k: v for k, v in best.items() if k not in roots}


def _dag(rng: random.Random, size: int) -> Edges:
    nodes = [f"n{i:03d}" for i in range(size)]
    edges: Edges = {}
    for i, node in enumerate(nodes[1:], start=1):
        parents = {rng.randrange(max(0, i - 8), i) for _ in range(rng.randint(1, 3))}
        edges[node] = [(nodes[p], rng.random() < 0.7) for p in sorted(parents)]
    return edges


@pytest.mark.parametrize("one_read_max", [0, 6, 10_000])
@pytest.mark.parametrize("seed", range(40))
def test_the_walk_matches_the_reference(seed: int, one_read_max: int) -> None:
    """In pages (0), in one read (10,000) and in pages after a one read past its bound (6)."""
    rng = random.Random(seed)
    edges = _dag(rng, 120)
    roots = sorted({f"n{rng.randrange(0, 10):03d}" for _ in range(rng.randint(1, 3))})
    status = {n: rng.choice(["live", "live", "live", "retired", "explored"]) for n in edges}
    max_depth = rng.randint(1, 12)
    page_size = rng.choice([1, 2, 7, 1000])
    executor = GraphExecutor(edges, status)
    found = walk(
        executor,
        "b",
        dict.fromkeys(roots, "live"),
        max_depth=max_depth,
        max_nodes=10_000,
        page_size=page_size,
        one_read_max=one_read_max,
    )
    every = _bfs(edges, roots, essential_only=False)
    essential = _bfs(edges, roots, essential_only=True)
    kept = {n for n, (d, _) in every.items() if d <= max_depth}
    graded = {n for n, (d, _) in essential.items() if d <= max_depth} & kept
    assert found.essential == {n: essential[n][1] for n in graded}
    assert found.supporting == {n: every[n][1] for n in kept - graded}
    assert found.blocked == {n: status[n] for n in graded if status[n] not in MOVABLE}
    deepest = max([d for d, _ in every.values()] + [d for d, _ in essential.values()], default=0)
    assert found.cut_by_depth == (deepest > max_depth)
    assert not found.cut_by_size and found.seq == 7
    assert found.depth == max((every[n][0] for n in kept), default=0)
    assert all(size <= page_size for size in executor.pages)
    pairs = sum(len(_bfs(edges, [root], essential_only=False)) for root in roots)
    if one_read_max == 0 or pairs > one_read_max:  # in pages: one statement per page
        assert found.pages == len(executor.pages) >= 1
    else:  # in one read: its two statements, no page
        assert (found.pages, executor.pages) == (1, []) and not found.paged
        assert executor.one_reads == [one_read_max + 1] * 2


def test_the_size_bound_keeps_the_shallowest_then_by_id_and_stops() -> None:
    edges: Edges = {f"a{i}": [("root", True)] for i in range(5)}
    edges |= {f"b{i}": [(f"a{i % 5}", True)] for i in range(20)}
    edges |= {f"c{i}": [(f"b{i % 20}", True)] for i in range(50)}
    executor = GraphExecutor(edges, {})
    found = walk(executor, "b", {"root": "live"}, max_depth=64, max_nodes=12, page_size=3)
    assert found.cut_by_size and found.reached == 12
    assert found.at_risk == sorted(
        [f"a{i}" for i in range(5)] + sorted(f"b{i}" for i in range(20))[:7]
    )
    # the root's page, then level a in pages of 3: nothing past the cut was read
    assert executor.pages == [1, 3, 2]


def test_an_essential_path_deeper_than_the_bound_cuts_by_depth() -> None:
    """x is within the depth bound by a supporting edge, but essential only through a longer
    path: it is flagged, and the summary must say the depth bound cut the grading."""
    edges: Edges = {
        "p1": [("root", True)],
        "p2": [("p1", True)],
        "x": [("root", False), ("p2", True)],
    }
    found = walk(GraphExecutor(edges, {}), "b", {"root": "live"}, max_depth=2, max_nodes=10)
    assert found.supporting == {"x": "root"} and set(found.essential) == {"p1", "p2"}
    assert found.cut_by_depth


def test_a_hub_returns_at_most_the_cap_and_the_cut_keeps_its_smallest_children() -> None:
    edges: Edges = {f"c{i:03d}": [("root", i % 2 == 0)] for i in range(500)}
    executor = GraphExecutor(edges, {})
    found = walk(executor, "b", {"root": "live"}, max_depth=64, max_nodes=10, page_size=5)
    assert executor.caps == [12]  # max_nodes + one root + 1: never the hub's 500 children
    assert found.cut_by_size and found.reached == 10
    assert sorted([*found.essential, *found.supporting]) == [f"c{i:03d}" for i in range(10)]
    assert found.at_risk == [f"c{i:03d}" for i in range(0, 10, 2)]


@pytest.mark.parametrize("seed", range(40))
def test_the_one_root_path_grades_as_the_general_one(seed: int) -> None:
    """``_one_root`` (one failed entry, every descendant within the depth bound: the lists as
    read, no map of depths) gives the walk ``_any`` gives for the same reach, and declines any
    reach deeper than the bound."""
    rng = random.Random(seed)
    edges = _dag(rng, 120)
    root = f"n{rng.randrange(0, 10):03d}"
    status = {n: rng.choice(["live", "live", "retired", "explored"]) for n in edges}
    executor = GraphExecutor(edges, status)
    reach = _one_read(executor, "b", [root], 10_001)
    deepest = max(reach.depths + reach.essential_depths, default=0)
    for max_depth in (1, deepest - 1, deepest, deepest + 3):
        if max_depth < 1:
            continue
        common = _one_root(reach, {root: "live"}, max_depth, 10_000)
        general = _any(reach, {root: "live"}, max_depth, 10_000)
        if max_depth < deepest:
            assert common is None
        else:
            assert common == general and common.reached == len(_bfs(edges, [root], False))
