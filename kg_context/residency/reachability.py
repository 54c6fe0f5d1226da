"""Residency, computed: what must stay in the window, by reachability from the roots (Cypher).

An entry should be resident iff it is standing and reachable from a root through ``REQUIRES``
edges that hold (``hard`` always, ``soft`` for its lease, ``reconstructible`` for its lease while
the record cannot rebuild it). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kg_context.db.reader import Reader
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.held_graph import walk_held
from kg_context.gate.pure.constitution import Constitution
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import REPLACED_STATUSES, STANDING_STATUSES, as_values

__all__ = [
    "PathEdge",
    "PathNode",
    "Reachability",
    "RootPath",
    "boundary_clock",
    "boundary_seq",
    "compute_reachable",
    "lease_params",
    "reachable",
    "why",
]


@dataclass(frozen=True, slots=True)
class Reachability:
    """The result of one reachability pass at boundary seq ``seq``."""

    boundary_id: str
    seq: int
    reached: frozenset[str]
    interfaces: frozenset[str]
    work: int = 0  # the boundary's work seq it was computed at (the lease clock)

    @property
    def resident(self) -> frozenset[str]:
        """Every entry that should be resident now."""
        return self.reached | self.interfaces


@dataclass(frozen=True, slots=True)
class PathNode:
    """One entry on a root path."""

    id: str
    entry_class: str
    key: str | None
    status: str
    expires_after_seq: int | None

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> PathNode:
        return cls(row["id"], row["class"], row["key"], row["status"], row["expires_after_seq"])

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "class": self.entry_class,
            "key": self.key,
            "status": self.status,
            "expires_after_seq": self.expires_after_seq,
        }


@dataclass(frozen=True, slots=True)
class PathEdge:
    """One REQUIRES edge on a root path: its policy and what holds it (``lease_until``: the
    work seq its lease runs to; its last renewal; whether its target is foundational, by
    whose mark)."""

    policy: str
    set_seq: int | None
    renewed_at_seq: int | None
    renewed_by: str | None
    renewal_kind: str | None
    foundational: bool
    foundational_by: str | None
    foundational_seq: int | None
    lease_until: int | None

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> PathEdge:
        return cls(
            policy=row["policy"],
            set_seq=row["set_seq"],
            renewed_at_seq=row["renewed_at_seq"],
            renewed_by=row["renewed_by"],
            renewal_kind=row["renewal_kind"],
            foundational=bool(row["foundational"]),
            foundational_by=row["foundational_by"],
            foundational_seq=row["foundational_seq"],
            lease_until=row["lease_until_seq"],
        )

    def text(self) -> str:
        """The edge's policy and what holds it: hard; foundational (whose mark, when); or its
        lease (until which work seq, last renewed at which seq, by what)."""
        if self.policy == "hard":
            return "hard"
        if self.foundational:
            return (
                f"{self.policy}, foundational, marked by operator {self.foundational_by} at seq "
                f"{self.foundational_seq}"
            )
        text = f"{self.policy}, lease until work seq {self.lease_until}"
        if self.renewed_by:
            text += (
                f", last renewed at seq {self.renewed_at_seq} by {self.renewed_by} "
                f"({self.renewal_kind})"
            )
        else:
            text += ", never renewed"
        return text


@dataclass(frozen=True, slots=True)
class RootPath:
    """Why an entry is resident: the root path (root first), or ``None`` when nothing holds it."""

    entry_id: str
    boundary_id: str
    status: str
    resident: bool
    seq: int
    nodes: tuple[PathNode, ...]
    edges: tuple[PathEdge, ...]
    via_interface_holder: str | None = None
    # Held under [roots] successors: the replaced entry the last node's REQUIRES points at, which
    # this entry superseded (directly or over a chain of supersessions).
    in_place_of: str | None = None
    work: int = 0  # the boundary's work seq (the lease clock)
    # Out of the window: standing entries holding it through reconstructible edges, the standing
    # interfaces that summarize it, and whether recall rebuilds it whole.
    reconstructible_from: tuple[str, ...] = ()
    rebuild_interfaces: tuple[str, ...] = ()
    recallable: bool = False

    @property
    def held(self) -> bool:
        return bool(self.nodes)

    @property
    def hold(self) -> str | None:
        """The policy and lease that hold the entry: the last edge of its root path (``None``
        when it is a root itself, or nothing holds it)."""
        if not self.edges:
            return None
        return self.edges[-1].text()

    def as_dict(self) -> dict[str, Any]:
        """The path as JSON-ready data, with whether it is held and its rendered text: the one
        form the CLI's ``--json``, the HTTP body and the MCP ``why`` result carry."""
        return {
            **asdict(self),
            "nodes": tuple(n.as_dict() for n in self.nodes),
            "held": self.held,
            "text": self.render(),
        }

    def render(self) -> str:
        head = f"{self.entry_id} ({self.status}, {'resident' if self.resident else 'not resident'})"
        if not self.nodes and self.reconstructible_from:
            via = [f"interface {i}" for i in self.rebuild_interfaces]
            if self.recallable:
                via.append("recall (its body and REQUIRES closure; recall.rehydrate)")
            how = ", ".join(via) if via else "nothing (not rebuildable: the czar keeps it out)"
            return (
                f"{head}: reconstructible: out of the window, held by "
                f"{', '.join(self.reconstructible_from)} through reconstructible edges; "
                f"rebuildable via {how}"
            )
        if not self.nodes and self.status not in STANDING_STATUSES:
            return f"{head}: {self.status} entries are held by no root (the record keeps it)"
        if not self.nodes:
            return f"{head}: no root path at seq {self.seq}; the czar retires it on its next run"
        parts = [f"{self.nodes[0].id} [{self.nodes[0].entry_class} root]"]
        for edge, node in zip(self.edges, self.nodes[1:], strict=True):
            parts.append(f"-[{edge.text()}]-> {node.id} [{node.entry_class}]")
        path = " ".join(parts)
        if self.via_interface_holder:
            path += f" =needs=> (summarized by) {self.entry_id}"
        if self.in_place_of:
            path += (
                f" -> {self.in_place_of} (replaced) =superseded by=> {self.entry_id} "
                "([roots] successors)"
            )
        return f"{head} at work seq {self.work}: {path}"


def boundary_seq(executor: Reader, boundary_id: str) -> int:
    return boundary_clock(executor, boundary_id)[0]


def boundary_clock(executor: Reader, boundary_id: str) -> tuple[int, int]:
    """The boundary's seq and work seq (its ratified sets but the czar's and constitution
    changes: the lease clock)."""
    rows = executor.read("boundary/get", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    return int(rows[0]["seq"] or 0), int(rows[0]["work_seq"] or 0)


def lease_params(settings: ResidencySettings) -> dict[str, int]:
    """The parameters the residency statements share: the default lease and recall's caps."""
    return {
        "default_lease": settings.default_lease_sets,
        "recall_max_entries": settings.recall_max_entries,
        "recall_max_depth": settings.recall_max_depth,
    }


def reachable(
    boundary: Boundary,
    *,
    work: int | None = None,
    constitution: Constitution | None = None,
    settings: ResidencySettings | None = None,
) -> Reachability:
    """What should be resident in ``boundary`` at work seq ``work`` (default: its current one),
    under its current constitution (or ``constitution``) and the handle's residency settings."""
    return compute_reachable(
        boundary.executor,
        boundary.id,
        constitution or boundary.constitution(),
        work=work,
        settings=settings or boundary.settings.residency,
    )


def compute_reachable(
    executor: Reader,
    boundary_id: str,
    constitution: Constitution,
    *,
    work: int | None = None,
    settings: ResidencySettings,
) -> Reachability:
    """``reachable`` for a planner that already holds the executor and constitution."""
    seq, now = boundary_clock(executor, boundary_id)
    work = now if work is None else work

    reached, graph = walk_held(
        executor,
        boundary_id,
        root_classes=constitution.root_class_names(),
        work=work,
        default_lease=settings.default_lease_sets,
        recall_max_entries=settings.recall_max_entries,
        recall_max_depth=settings.recall_max_depth,
        successors=constitution.roots.successors,
    )
    return Reachability(
        boundary_id=boundary_id,
        seq=seq,
        reached=frozenset(k if isinstance(k, str) else k[1] for k in reached),
        interfaces=frozenset(i for k in reached for i in graph.interfaces.get(k, ())),
        work=work,
    )


def _path(
    executor: Reader,
    boundary_id: str,
    entry_id: str,
    constitution: Constitution,
    work: int,
    settings: ResidencySettings,
) -> tuple[tuple[PathNode, ...], tuple[PathEdge, ...]]:
    rows = executor.read(
        "residency/why",
        boundary_id=boundary_id,
        entry_id=entry_id,
        standing=as_values(STANDING_STATUSES),
        root_classes=constitution.root_class_names(),
        work=work,
        default_lease=settings.default_lease_sets,
        recall_max_entries=settings.recall_max_entries,
        recall_max_depth=settings.recall_max_depth,
    )
    if not rows:
        return (), ()
    nodes = tuple(PathNode.of(n) for n in rows[0]["nodes"])
    return nodes, tuple(PathEdge.of(e) for e in rows[0]["edges"])


def why(
    boundary: Boundary,
    entry_id: str,
    *,
    constitution: Constitution | None = None,
    settings: ResidencySettings | None = None,
) -> RootPath:
    """The root path that keeps ``entry_id`` of ``boundary`` resident (shortest), or an empty
    path; under the boundary's current constitution (or ``constitution``)."""
    executor = boundary.executor
    settings = settings or boundary.settings.residency
    rows = executor.read("residency/entry", boundary_id=boundary.id, entry_id=entry_id)
    if not rows:
        raise StateError(
            f"no entry {entry_id} in boundary {boundary.id}",
            boundary_id=boundary.id,
            entry_id=entry_id,
        )
    entry = rows[0]
    seq = int(entry["seq"] or 0)
    work = int(entry["work_seq"] or 0)
    common: dict[str, Any] = {
        "entry_id": entry_id,
        "boundary_id": entry["boundary_id"],
        "status": entry["status"],
        "resident": bool(entry["resident"]),
        "seq": seq,
        "work": work,
    }
    rebuild = executor.read(
        "residency/rebuild",
        boundary_id=boundary.id,
        entry_id=entry_id,
        standing=as_values(STANDING_STATUSES),
        recall_max_entries=settings.recall_max_entries,
        recall_max_depth=settings.recall_max_depth,
    )[0]
    if rebuild["dependents"]:
        common.update(
            reconstructible_from=tuple(sorted(rebuild["dependents"])),
            rebuild_interfaces=tuple(sorted(rebuild["interfaces"])),
            recallable=bool(rebuild["recallable"]),
        )
    if entry["status"] not in STANDING_STATUSES:
        return RootPath(**common, nodes=(), edges=())
    constitution = constitution or boundary.constitution()
    nodes, edges = _path(executor, boundary.id, entry_id, constitution, work, settings)
    if nodes:
        return RootPath(**common, nodes=nodes, edges=edges)
    if constitution.roots.successors:
        for holder in executor.read(
            "residency/successor_holders",
            boundary_id=boundary.id,
            entry_id=entry_id,
            standing=as_values(STANDING_STATUSES),
            replaced=as_values(REPLACED_STATUSES),
            work=work,
            default_lease=settings.default_lease_sets,
        ):
            nodes, edges = _path(
                executor, boundary.id, holder["holder_id"], constitution, work, settings
            )
            if nodes:
                return RootPath(
                    **common, nodes=nodes, edges=edges, in_place_of=holder["replaced_id"]
                )
    if entry["class"] != "interface":
        return RootPath(**common, nodes=(), edges=())
    for holder in executor.read(
        "residency/interface_holders",
        boundary_id=boundary.id,
        entry_id=entry_id,
        standing=as_values(STANDING_STATUSES),
    ):
        nodes, edges = _path(
            executor, boundary.id, holder["holder_id"], constitution, work, settings
        )
        if nodes:
            return RootPath(
                **common, nodes=nodes, edges=edges, via_interface_holder=holder["holder_id"]
            )
    return RootPath(**common, nodes=(), edges=())
