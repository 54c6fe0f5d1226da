"""Residency, computed: what must stay in the window, by reachability from the roots (Cypher).

An entry should be resident iff it is *standing* (live, revalidated, challenged or at_risk) and
reachable from a root through ``REQUIRES`` edges that are ``hard``, or ``soft``/
``reconstructible`` with an unexpired lease. Roots are standing entries of the constitution's
root classes, plus standing entries still inside their own lease (``expires_after_seq > seq``:
deliberative material and recalled scratch copies hold themselves for their lease, then need a
path like everything else), plus standing ``superseded_by_default`` entries (they hold until a
newer standing entry of their key exists; the czar then retires them).

Leases count in boundary seq. An edge's lease is ``lease_until_seq`` (set by the gate from
``lease_sets``), or ``set_seq + default_lease_sets`` when the writer declared none. A live
reference renews a lease: a newer committed entry that requires the same entry carries its own,
later lease, and while that entry is itself reachable the target stays reachable through it.
Interfaces are resident while a reachable entry holds what they summarize through a soft edge
naming ``needs``. Nothing here writes: the czar turns the difference between this computation
and the window into a compaction set, which the gate ratifies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kg_context.db.reader import Reader
from kg_context.errors import StateError
from kg_context.gate.boundary import Boundary
from kg_context.gate.constitution import Constitution
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import STANDING_STATUSES, as_values

__all__ = [
    "Reachability",
    "RootPath",
    "boundary_seq",
    "compute_reachable",
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

    @property
    def resident(self) -> frozenset[str]:
        """Every entry that should be resident now."""
        return self.reached | self.interfaces


@dataclass(frozen=True, slots=True)
class RootPath:
    """Why an entry is resident: the root path (root first), or ``None`` when nothing holds it."""

    entry_id: str
    boundary_id: str
    status: str
    resident: bool
    seq: int
    nodes: tuple[dict[str, Any], ...]
    edges: tuple[dict[str, Any], ...]
    via_interface_holder: str | None = None

    @property
    def held(self) -> bool:
        return bool(self.nodes)

    def render(self) -> str:
        head = f"{self.entry_id} ({self.status}, {'resident' if self.resident else 'not resident'})"
        if not self.nodes and self.status not in STANDING_STATUSES:
            return f"{head}: {self.status} entries are held by no root (the record keeps it)"
        if not self.nodes:
            return f"{head}: no root path at seq {self.seq}; the czar retires it on its next run"
        parts = [f"{self.nodes[0]['id']} [{self.nodes[0]['class']} root]"]
        for edge, node in zip(self.edges, self.nodes[1:], strict=True):
            lease = "" if edge["policy"] == "hard" else f", lease to seq {edge['lease_until']}"
            parts.append(f"-[{edge['policy']}{lease}]-> {node['id']} [{node['class']}]")
        path = " ".join(parts)
        if self.via_interface_holder:
            path += f" =needs=> (summarized by) {self.entry_id}"
        return f"{head}: {path}"


def boundary_seq(executor: Reader, boundary_id: str) -> int:
    rows = executor.read("boundary/get", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}")
    return int(rows[0]["seq"] or 0)


def reachable(
    boundary: Boundary,
    *,
    seq: int | None = None,
    constitution: Constitution | None = None,
    settings: ResidencySettings | None = None,
) -> Reachability:
    """What should be resident in ``boundary`` at ``seq`` (default: its current seq), under its
    current constitution (or ``constitution``) and the handle's residency settings."""
    return compute_reachable(
        boundary.executor,
        boundary.id,
        constitution or boundary.constitution(),
        seq=seq,
        settings=settings or boundary.settings.residency,
    )


def compute_reachable(
    executor: Reader,
    boundary_id: str,
    constitution: Constitution,
    *,
    seq: int | None = None,
    settings: ResidencySettings,
) -> Reachability:
    """``reachable`` for a planner that already holds the executor and constitution."""
    seq = boundary_seq(executor, boundary_id) if seq is None else seq
    rows = executor.read(
        "residency/reachable",
        boundary_id=boundary_id,
        standing=as_values(STANDING_STATUSES),
        root_classes=constitution.root_class_names(),
        seq=seq,
        default_lease=settings.default_lease_sets,
    )
    row = rows[0] if rows else {"reached": [], "interfaces": []}
    return Reachability(
        boundary_id=boundary_id,
        seq=seq,
        reached=frozenset(row["reached"]),
        interfaces=frozenset(row["interfaces"]),
    )


def _path(
    executor: Reader,
    boundary_id: str,
    entry_id: str,
    constitution: Constitution,
    seq: int,
    settings: ResidencySettings,
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    rows = executor.read(
        "residency/why",
        boundary_id=boundary_id,
        entry_id=entry_id,
        standing=as_values(STANDING_STATUSES),
        root_classes=constitution.root_class_names(),
        seq=seq,
        default_lease=settings.default_lease_sets,
    )
    if not rows:
        return (), ()
    edges = tuple(
        {
            "policy": e["policy"],
            "lease_until": e["lease_until_seq"]
            if e["lease_until_seq"] is not None
            else e["set_seq"] + settings.default_lease_sets,
        }
        for e in rows[0]["edges"]
    )
    return tuple(rows[0]["nodes"]), edges


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
        raise StateError(f"no entry {entry_id} in boundary {boundary.id}")
    entry = rows[0]
    seq = int(entry["seq"] or 0)
    common = {
        "entry_id": entry_id,
        "boundary_id": entry["boundary_id"],
        "status": entry["status"],
        "resident": bool(entry["resident"]),
        "seq": seq,
    }
    if entry["status"] not in STANDING_STATUSES:
        return RootPath(**common, nodes=(), edges=())
    constitution = constitution or boundary.constitution()
    nodes, edges = _path(executor, boundary.id, entry_id, constitution, seq, settings)
    if nodes or entry["class"] != "interface":
        return RootPath(**common, nodes=nodes, edges=edges)
    for holder in executor.read(
        "residency/interface_holders",
        boundary_id=boundary.id,
        entry_id=entry_id,
        standing=as_values(STANDING_STATUSES),
    ):
        nodes, edges = _path(
            executor, boundary.id, holder["holder_id"], constitution, seq, settings
        )
        if nodes:
            return RootPath(
                **common, nodes=nodes, edges=edges, via_interface_holder=holder["holder_id"]
            )
    return RootPath(**common, nodes=(), edges=())
