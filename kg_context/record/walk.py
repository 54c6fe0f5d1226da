"""The invalidation walk: ``DERIVED_FROM`` forward from failed entries, graded and bounded, in
memory bounded by its bounds whatever the blast radius.

One read when the reach is within the bounds, else a paged breadth-first search; bounded in depth
and size; a descendant is at risk through essential edges only, else flagged. Reads only:
``invalidation`` turns a walk into governed sets.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from kg_context.db.executor import QueryExecutor, Transaction
from kg_context.errors import StateError
from kg_context.gate.pure.status_machine import may_become
from kg_context.vocabulary import EntryStatus, as_values

__all__ = ["MOVABLE", "Walk", "walk"]

# Statuses an essential descendant may move to at_risk from (the status machine decides).
MOVABLE = frozenset(as_values(may_become(EntryStatus.AT_RISK)))
_MOVABLE_LIST = sorted(MOVABLE)  # the parameter reach_essential.cypher filters by


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
    # Statements that read the reach: 1 for the one read, else one per page of at most
    # page_size entries of one level.
    pages: int = 1
    edges: int = 0  # DERIVED_FROM edges the paged walk read (0 for the one read)

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

    @property
    def paged(self) -> bool:
        """Whether the walk took more than one page per level it read."""
        return self.pages > self.depth + 1


@dataclass(slots=True)
class _Search:
    """The breadth-first search's state: everything the walk holds, one entry per id."""

    depth: dict[str, int]  # id -> least depth (failed entries at 0)
    root: dict[str, str]  # id -> nearest failed entry
    status: dict[str, str] = field(default_factory=dict)
    essential_children: dict[str, list[str]] = field(default_factory=dict)
    pages: int = 0
    edges: int = 0
    cut_by_depth: bool = False
    cut_by_size: bool = False
    level: int = 0


def _pages(ids: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _expand(
    tx: Transaction,
    boundary_id: str,
    frontier: list[str],
    page_size: int,
    cap: int,
    s: _Search,
) -> dict[str, str]:
    """One level: the children of ``frontier`` not seen before, each with its nearest root
    (the smallest root id among the parents that reach it at this level)."""
    found: dict[str, str] = {}
    for page in _pages(frontier, page_size):
        s.pages += 1
        rows = tx.run("invalidation/children", parents=page, boundary_id=boundary_id, cap=cap)
        for row in rows:
            parent = row["parent"]
            root = s.root[parent]
            children = row["children"]
            s.edges += len(children)
            for child, essential, status in zip(
                children, row["essential"], row["statuses"], strict=True
            ):
                s.status[child] = status
                if essential:
                    s.essential_children.setdefault(parent, []).append(child)
                if child in s.depth:
                    continue
                if child not in found or root < found[child]:
                    found[child] = root
    return found


def _search(
    tx: Transaction,
    boundary_id: str,
    roots: list[str],
    max_depth: int,
    max_nodes: int,
    page_size: int,
) -> _Search:
    s = _Search(depth=dict.fromkeys(roots, 0), root={r: r for r in roots})
    # The most children of one entry the walk could keep: the size bound, plus the entries it
    # has already seen (at most the bound and the roots), plus one to tell a cut.
    cap = max_nodes + len(roots) + 1
    frontier = roots
    reached = 0
    while frontier:
        found = _expand(tx, boundary_id, frontier, page_size, cap, s)
        if s.level == max_depth:  # the level past the bound: read only to know if it cut
            s.cut_by_depth = bool(found)
            break
        level = sorted(found)
        if reached + len(level) > max_nodes:
            level = level[: max_nodes - reached]
            s.cut_by_size = True
        s.level += 1
        for child in level:
            s.depth[child] = s.level
            s.root[child] = found[child]
        reached += len(level)
        frontier = [] if s.cut_by_size else level
    return s


def _essential(s: _Search, roots: list[str], max_depth: int) -> tuple[dict[str, str], bool]:
    """Descendants reachable from the roots through essential edges only, within ``max_depth``
    (kept ones), each with its nearest root; and whether an essential path went deeper."""
    graded: dict[str, str] = {}
    frontier = roots
    origin = {r: r for r in roots}
    for level in range(1, max_depth + 2):
        found: dict[str, str] = {}
        for parent in frontier:
            for child in s.essential_children.get(parent, ()):
                if child in origin or child not in s.depth:
                    continue
                root = origin[parent]
                if child not in found or root < found[child]:
                    found[child] = root
        if not found:
            return graded, False
        if level > max_depth:
            return graded, True
        origin.update(found)
        graded.update(found)
        frontier = sorted(found)
    return graded, False


@dataclass(frozen=True, slots=True)
class _Reach:
    """One read of the whole reach: per descendant, its least depth and nearest failed entry
    (over every path, and over essential edges only), the essential ones whose status may not
    move to at_risk (with it), and whether both statements came back under their row limit."""

    seq: int
    complete: bool
    # Per (failed entry, descendant) pair, as read: the descendant, its least depth from that
    # failed entry, and the failed entry's index in the sorted roots; over every path, then over
    # essential edges only.
    ids: list[str]
    depths: list[int]
    roots: list[int]
    essential_ids: list[str]
    essential_depths: list[int]
    essential_roots: list[int]
    unmovable: dict[str, str]


def _nearest(
    ids: list[str], depths: list[int], indexes: list[int], roots: list[str]
) -> tuple[dict[str, int], dict[str, str]]:
    """Per descendant, the least depth and, among the failed entries at that depth, the
    smallest id: over the (failed entry, descendant, depth) triples. With one failed
    entry the nearest is always it: the second map is empty (``_any`` knows)."""
    if len(roots) == 1:  # one failed entry: one triple per descendant, at its least depth
        return dict(zip(ids, depths, strict=True)), {}
    depth: dict[str, int] = {}
    root: dict[str, str] = {}
    for index, entry_id, least in zip(indexes, ids, depths, strict=True):
        known = depth.get(entry_id)
        if known is None or (least, roots[index]) < (known, root[entry_id]):
            depth[entry_id], root[entry_id] = least, roots[index]
    return depth, root


def _one_read(executor: QueryExecutor, boundary_id: str, roots: list[str], limit: int) -> _Reach:
    """Both statements of the one read, side by side (two read transactions)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        essential_rows = pool.submit(
            executor.read,
            "invalidation/reach_essential",
            roots=roots,
            boundary_id=boundary_id,
            limit=limit,
            movable=_MOVABLE_LIST,
        )
        rows = executor.read(
            "invalidation/reach", roots=roots, boundary_id=boundary_id, limit=limit
        )
        (essential_row,) = essential_rows.result()
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    (row,) = rows
    complete = len(row["ids"]) < limit and len(essential_row["ids"]) < limit
    # Only the essential descendants whose status may not move come back with it: reading
    # every one's status back cost ~10% of the statement.
    unmovable = dict(
        zip(essential_row["unmovable_ids"], essential_row["unmovable_statuses"], strict=True)
    )
    return _Reach(
        int(row["seq"]),
        complete,
        row["ids"],
        row["depths"],
        row["roots"],
        essential_row["ids"],
        essential_row["depths"],
        essential_row["roots"],
        unmovable,
    )


def _one_root(reach: _Reach, failed: dict[str, str], max_depth: int, max_nodes: int) -> Walk | None:
    """The common walk, from the lists as read: one failed entry, not reached from itself, every
    descendant within the depth bound (both reads' deepest). None for any other (the general
    path, ``_any``). Its root is every descendant's nearest: no map of depths is built."""
    if len(failed) != 1:
        return None
    (only,) = failed
    reached = set(reach.ids)
    deepest = max(reach.depths, default=0)
    if only in reached or deepest > max_depth:
        return None
    if max(reach.essential_depths, default=0) > max_depth:
        return None
    # Every essential path is a path: an entry graded essential is one the reach kept.
    reached_essential = reached.intersection(reach.essential_ids)
    return _one_read_walk(
        reach,
        failed,
        dict.fromkeys(reached_essential, only),
        dict.fromkeys(reached - reached_essential, only),
        depth=deepest,
        cut_by_depth=False,
        bounds=(max_depth, max_nodes),
    )


def _graded(reach: _Reach, failed: dict[str, str], max_depth: int, max_nodes: int) -> Walk:
    """A walk from the one read's whole reach (no size cut: it holds at most ``max_nodes``)."""
    common = _one_root(reach, failed, max_depth, max_nodes)
    return common if common is not None else _any(reach, failed, max_depth, max_nodes)


def _any(reach: _Reach, failed: dict[str, str], max_depth: int, max_nodes: int) -> Walk:
    """``_graded`` for any reach: set operations over the id sets, dropping only what must go:
    a failed entry reached from another (never its own descendant), and entries deeper than the
    depth bound (looked for only where the reach went deeper than it)."""
    roots = sorted(failed)
    depth, root = _nearest(reach.ids, reach.depths, reach.roots, roots)
    essential_depth, essential_root = _nearest(
        reach.essential_ids, reach.essential_depths, reach.essential_roots, roots
    )
    dropped = {i for i in failed if i in depth}
    deepest = max(depth.values(), default=0)
    if deepest > max_depth:
        dropped |= {i for i, d in depth.items() if d > max_depth}
    essential_dropped = dropped | {i for i in failed if i in essential_depth}
    if max(essential_depth.values(), default=0) > max_depth:
        essential_dropped |= {i for i, d in essential_depth.items() if d > max_depth}
    deeper = not (dropped | essential_dropped) <= failed.keys()
    # Every essential path is a path: an entry graded essential is one the reach kept.
    reached_essential = (essential_depth.keys() & depth.keys()) - essential_dropped
    reached_supporting = depth.keys() - reached_essential
    if dropped:
        reached_supporting -= dropped
    if len(failed) == 1:  # the one failed entry is every descendant's nearest
        (only,) = failed
        essential = dict.fromkeys(reached_essential, only)
        supporting = dict.fromkeys(reached_supporting, only)
    else:
        essential = {i: essential_root[i] for i in reached_essential}
        supporting = {i: root[i] for i in reached_supporting}
    if dropped:
        deepest = max((d for i, d in depth.items() if i not in dropped), default=0)
    return _one_read_walk(
        reach,
        failed,
        essential,
        supporting,
        depth=deepest,
        cut_by_depth=deeper,
        bounds=(max_depth, max_nodes),
    )


def _one_read_walk(
    reach: _Reach,
    failed: dict[str, str],
    essential: dict[str, str],
    supporting: dict[str, str],
    *,
    depth: int,
    cut_by_depth: bool,
    bounds: tuple[int, int],
) -> Walk:
    """The walk of one read, graded (either path): the essential descendants whose status may
    not move are the blocked ones; one read never cuts by size."""
    return Walk(
        failed=dict(failed),
        essential=essential,
        supporting=supporting,
        blocked={i: s for i, s in reach.unmovable.items() if i in essential},
        depth=depth,
        cut_by_depth=cut_by_depth,
        cut_by_size=False,
        max_depth=bounds[0],
        max_nodes=bounds[1],
        seq=reach.seq,
    )


def walk(
    executor: QueryExecutor,
    boundary_id: str,
    failed: dict[str, str],
    *,
    max_depth: int,
    max_nodes: int,
    page_size: int = 2_000,
    one_read_max: int = 50_000,
) -> Walk:
    """Walk DERIVED_FROM forward from ``failed`` (id -> status): in one read when the reach
    holds at most ``min(max_nodes, one_read_max)`` (descendant, failed entry) pairs (0: always
    in pages), else level by level in pages of at most ``page_size`` entries (one read
    transaction). Entries deeper than ``max_depth`` are cut; beyond ``max_nodes`` descendants
    the shallowest are kept (then by id)."""
    roots = sorted(failed)
    if one_read_max > 0:
        reach = _one_read(executor, boundary_id, roots, min(max_nodes, one_read_max) + 1)
        if reach.complete:
            return _graded(reach, failed, max_depth, max_nodes)
        seq = reach.seq
    else:
        state = executor.read("invalidation/boundary_seq", boundary_id=boundary_id)
        if not state:
            raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
        seq = int(state[0]["seq"])

    def run(tx: Transaction) -> _Search:
        return _search(tx, boundary_id, roots, max_depth, max_nodes, page_size)

    s = executor.read_tx(run)
    essential_roots, deeper = _essential(s, roots, max_depth)
    essential: dict[str, str] = {}
    supporting: dict[str, str] = {}
    blocked: dict[str, str] = {}
    for entry_id, depth in s.depth.items():
        if depth == 0:
            continue
        if entry_id in essential_roots:
            essential[entry_id] = essential_roots[entry_id]
            status = s.status[entry_id]
            if status not in MOVABLE:
                blocked[entry_id] = status
        else:
            supporting[entry_id] = s.root[entry_id]
    return Walk(
        failed=dict(failed),
        essential=essential,
        supporting=supporting,
        blocked=blocked,
        depth=max(s.depth.values(), default=0),
        cut_by_depth=s.cut_by_depth or deeper,
        cut_by_size=s.cut_by_size,
        max_depth=max_depth,
        max_nodes=max_nodes,
        seq=seq,
        pages=s.pages,
        edges=s.edges,
    )
