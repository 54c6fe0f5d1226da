"""The shape of the declared graph (pure predicates): what a set's new entries may depend on:
references across boundaries only with an adoption receipt (``CROSS_BOUNDARY``), no dependency
cycles (``DEPENDENCY_CYCLE``), and no dependency on non-standing state
(``NON_STANDING_DEPENDENCY``).
"""

from __future__ import annotations

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.rehydration import dependency_amendment
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, halt, reject
from kg_context.vocabulary import (
    NOT_STANDING,
    EntryClass,
    EntryStatus,
    OnRetiredDependency,
    ReasonCode,
    ResidencyPolicy,
)

__all__ = ["cross_boundary", "dependency_cycle", "non_standing_dependency"]


def cross_boundary(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    for proposal, entry_id, entry in view.entries:
        for edge, ref in entry.foreign_references():
            where = ref.boundary_id
            assert where is not None
            said = f"entry {entry_id} declares {edge} on {ref.entry_id} of boundary {where}"
            if edge == "supersedes":
                return reject(ReasonCode.CROSS_BOUNDARY, f"{said}: supersession never crosses")
            if edge not in c.cross_boundary.allowed:
                return reject(
                    ReasonCode.CROSS_BOUNDARY,
                    f"{said}; constitution {c.version} allows no cross-boundary {edge}",
                    f"[cross_boundary] allowed += [{edge!r}]",
                )
            target = snapshot.foreign.get((where, ref.entry_id))
            if target is None:
                continue  # dependencies_exist names it
            receipt = snapshot.adoptions.get(proposal.adoption_receipt_id or "")
            if receipt is None or receipt.boundary_id != where:
                return reject(
                    ReasonCode.CROSS_BOUNDARY,
                    f"{said} without citing an adoption receipt of boundary {where}",
                    f"an operator of {where} issues an adoption receipt for key {target.key!r} "
                    "and the writer cites it",
                )
            problem = receipt.problem(target.key, receipt.boundary_seq, target.verse)
            if problem is not None:
                return reject(
                    ReasonCode.CROSS_BOUNDARY, f"{said}; adoption receipt {receipt.id} {problem}"
                )
    return None


def _cycle(edges: dict[str, list[str]]) -> list[str] | None:
    """A cycle of the directed graph ``edges`` (node -> successors), as a path, or ``None``."""
    done: set[str] = set()
    for start in sorted(edges):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, int]] = [(start, 0)]
        while stack:
            node, i = stack.pop()
            if i == 0:
                path.append(node)
                on_path.add(node)
            successors = edges.get(node, [])
            if i < len(successors):
                stack.append((node, i + 1))
                nxt = successors[i]
                if nxt in on_path:
                    return [*path[path.index(nxt) :], nxt]
                if nxt not in done:
                    stack.append((nxt, 0))
                continue
            done.add(node)
            on_path.discard(node)
            path.pop()
    return None


def dependency_cycle(view: SetView, _: Constitution, __: Snapshot) -> Violation | None:
    new_ids = view.new_ids
    derived: dict[str, list[str]] = {}
    hard: dict[str, list[str]] = {}
    for _proposal, entry_id, entry in view.entries:
        derived[entry_id] = [
            r.entry_id
            for r in entry.derived_from
            if r.boundary_id is None and r.entry_id in new_ids
        ]
        hard[entry_id] = [
            r.entry_id
            for r in entry.requires
            if r.boundary_id is None and r.entry_id in new_ids and r.policy is ResidencyPolicy.HARD
        ]
    for name, edges in (("DERIVED_FROM", derived), ("hard REQUIRES", hard)):
        found = _cycle(edges)
        if found is not None:
            return reject(
                ReasonCode.DEPENDENCY_CYCLE,
                f"{name} cycle among the set's entries: {' -> '.join(found)}",
            )
    return None


def _leaving(view: SetView) -> tuple[dict[str, str], set[str]]:
    """What the set itself takes out of standing: entries it transitions out (with the status),
    and, unless the boundary runs append-only, what its entries supersede. Deriving from what the
    same set supersedes or retires is a replacement's provenance (a revision, a migration);
    requiring it would make the state the set retires load-bearing."""
    moved = {
        t.entry_id: t.to.value
        for _, t in view.transitions
        if t.to is not None and t.to in NOT_STANDING
    }
    superseded: set[str] = set()
    if not view.append_only:
        superseded = {
            sup.entry_id
            for _, _, entry in view.entries
            for sup in entry.supersedes
            if sup.boundary_id is None
        }
    return moved, superseded


def _status_of(view: SetView, snapshot: Snapshot, ref_id: str, where: str | None) -> str | None:
    if where is not None:
        foreign = snapshot.foreign.get((where, ref_id))
        return foreign.status if foreign is not None else None
    if ref_id in view.new_status:
        return view.new_status[ref_id].value
    own = snapshot.own(ref_id)
    return own.status if own is not None else None


def non_standing_dependency(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    moved, superseded = _leaving(view)
    rehydrated = {(dependent, original) for dependent, original, _ in view.rehydrated}
    for _proposal, entry_id, entry in view.entries:
        deps = [(r.entry_id, r.boundary_id, True) for r in entry.requires]
        if entry.entry_class != EntryClass.INTERFACE:
            deps += [(r.entry_id, r.boundary_id, False) for r in entry.derived_from if r.essential]
        for ref_id, where, requires in deps:
            status = _status_of(view, snapshot, ref_id, where)
            why = None
            if (entry_id, ref_id) in rehydrated:
                continue  # an essential derivation whose original the rule brought back
            if where is None and ref_id in view.copy_source_ids:
                continue  # a recall copy's source the set brings back (or that stands)
            if status is not None and EntryStatus(status) in NOT_STANDING:
                why = f"which is {status}"
            elif where is None and requires and ref_id in moved:
                why = f"which the set itself moves to {moved[ref_id]}"
            elif where is None and requires and ref_id in superseded:
                why = "which the set itself supersedes"
            if why is not None:
                edge = "REQUIRES" if requires else "essential DERIVED_FROM"
                return halt(
                    ReasonCode.NON_STANDING_DEPENDENCY,
                    f"entry {entry_id} declares {edge} on {ref_id}, {why}: non-standing state "
                    "would become load-bearing",
                    _amendment(view, c, snapshot, ref_id, where, status),
                )
    return None


def _amendment(
    view: SetView,
    c: Constitution,
    snapshot: Snapshot,
    ref_id: str,
    where: str | None,
    status: str | None,
) -> str:
    """The rule that would have decided the dependency, where one can: a retired entry of the
    own boundary, retired from live, comes back under ``[on_dependency] retired = "rehydrate"``.
    No rule makes superseded or failed state load-bearing."""
    source = snapshot.retired_sources.get(ref_id)
    rebuildable = source is not None and source.from_live and source.entry_class != "scratch"
    if (
        where is None
        and status == EntryStatus.RETIRED.value
        and ref_id not in view.new_ids
        and rebuildable
        and c.on_dependency.retired is OnRetiredDependency.HALT
    ):
        return dependency_amendment()
    return (
        "none decides it: recall the entry and depend on the recalled copy, declare a supporting "
        "DERIVED_FROM for provenance, or an operator approves the halt"
    )
