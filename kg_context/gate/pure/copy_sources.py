"""Dependencies on recall copies under the constitution's ``[on_dependency] recall_copy`` rule
(pure): a ``REQUIRES`` on a recall copy is satisfied by the copy's source. A source retired from
live comes back resident in the same set (a rehydration the receipts name, a transition of that
set); a source still live and resident is required as it stands; either way the edge points at the
source (a ``DERIVED_FROM`` of the same entry on the copy too: provenance is the source's), and the
set spends the copy's one use. A source that was superseded, failed or explored, is scratch, lives
in another boundary, is of a class the set's writer may not commit, or that the set itself
supersedes or moves never comes back: the dependency stays on the copy. What a copy is and what it
was copied from is decided from the graph (``Snapshot.copy_sources``), never a writer's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import (
    EntryProposal,
    Proposal,
    Provenance,
    Residency,
    WriterKind,
)
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import (
    STANDING_STATUSES,
    EntryClass,
    EntryStatus,
    OnRecallCopyDependency,
)

__all__ = [
    "RULE_SOURCE",
    "CopyUse",
    "apply_copy_source_rule",
    "copy_reference_ids",
    "copy_uses",
]

RULE_SOURCE = f"on_dependency.recall_copy={OnRecallCopyDependency.SOURCE.value}"


def copy_reference_ids(sets: Sequence[ClosedSet], snapshot: Snapshot) -> list[str]:
    """The scratch entries of the boundary the sets' entries require or derive from (what may be
    a recall copy: the gate reads what each was copied from), sorted."""
    found: set[str] = set()
    for closed in sets:
        for proposal in closed.proposals:
            for entry in proposal.entries:
                for ref in (*entry.requires, *entry.derived_from):
                    state = snapshot.own(ref.entry_id) if ref.boundary_id is None else None
                    if state is not None and state.entry_class == EntryClass.SCRATCH.value:
                        found.add(ref.entry_id)
    return sorted(found)


def _leaving(view: SetView) -> set[str]:
    """What the set itself supersedes or moves: never a source it brings back."""
    out = {s.entry_id for _, _, e in view.entries for s in e.supersedes if s.boundary_id is None}
    out.update(t.entry_id for _, t in view.transitions)
    return out


def _source_of(
    snapshot: Snapshot, constitution: Constitution, proposal: Proposal, copy_id: str
) -> str | None:
    """The source a dependency on ``copy_id`` is satisfied by, or ``None`` (it stays on the
    copy): the copy is one the graph shows was copied, standing or spent; its source is of this
    boundary, not scratch, of a class the writer may commit, and live and resident now or retired
    from live."""
    found = snapshot.copy_sources.get(copy_id)
    copy = snapshot.own(copy_id)
    if found is None or copy is None:
        return None
    if copy.status not in STANDING_STATUSES and copy.status != EntryStatus.RETIRED.value:
        return None
    source = snapshot.own(found.source.id)
    if source is None or source.entry_class == EntryClass.SCRATCH.value:
        return None
    if not constitution.may_write(WriterKind(proposal.writer_kind), source.entry_class):
        return None
    if source.live and source.resident:
        return source.id
    if source.status == EntryStatus.RETIRED.value and found.from_live:
        return source.id
    return None


_R = TypeVar("_R", Provenance, Residency)


def _moved(refs: Sequence[_R], points: dict[str, str]) -> tuple[_R, ...]:
    """``refs`` with the bare ones on the copies in ``points`` moved to their sources, each
    target once (an edge the entry already declared to the source is kept, the first)."""
    seen: set[tuple[str | None, str]] = set()
    kept: list[_R] = []
    for ref in refs:
        if ref.boundary_id is None and ref.entry_id in points:
            ref = ref.model_copy(update={"entry_id": points[ref.entry_id]})
        if (ref.boundary_id, ref.entry_id) not in seen:
            seen.add((ref.boundary_id, ref.entry_id))
            kept.append(ref)
    return tuple(kept)


def _pointed(entry: EntryProposal, points: dict[str, str]) -> EntryProposal:
    """The entry with its bare REQUIRES and DERIVED_FROM on the copies in ``points`` moved to
    their sources."""
    return entry.model_copy(
        update={
            "requires": _moved(entry.requires, points),
            "derived_from": _moved(entry.derived_from, points),
        }
    )


def apply_copy_source_rule(
    view: SetView, constitution: Constitution, snapshot: Snapshot
) -> SetView:
    """The set with every bare REQUIRES on a recall copy whose source may stand for it moved to
    that source (and the entry's DERIVED_FROM on the same copy with it). Every check then runs
    over the set as it stands, a dependency on a source the set brings back counted as standing.
    ``sourced`` names (dependent, copy, source) for the commit plan and the receipts. The set
    itself when the rule moves none."""
    rule = constitution.on_dependency.recall_copy
    if view.append_only or rule is not OnRecallCopyDependency.SOURCE or not snapshot.copy_sources:
        return view
    leaving = _leaving(view)
    new_ids = view.new_ids
    made: list[tuple[str, str, str]] = []
    entries: list[tuple[Proposal, str, EntryProposal]] = []
    for proposal, entry_id, entry in view.entries:
        points: dict[str, str] = {}
        for ref in entry.requires:
            if ref.boundary_id is not None or ref.entry_id in points or ref.entry_id in new_ids:
                continue
            source = _source_of(snapshot, constitution, proposal, ref.entry_id)
            if source is not None and source not in leaving and source not in new_ids:
                points[ref.entry_id] = source
        if not points:
            entries.append((proposal, entry_id, entry))
            continue
        made.extend((entry_id, copy, source) for copy, source in points.items())
        entries.append((proposal, entry_id, _pointed(entry, points)))
    if not made:
        return view
    return replace(view, entries=tuple(entries), sourced=tuple(made))


@dataclass(frozen=True, slots=True)
class CopyUse:
    """What the rule decided for one copy a set depended on: its source, whether the source comes
    back (retired from live), the dependents, and whether the set spends the copy's one use."""

    copy_id: str
    source_id: str
    rehydrate: bool
    dependents: tuple[str, ...]
    spent: bool
    justification: tuple[str, ...]


def _held_elsewhere(snapshot: Snapshot, copy_id: str, work: int) -> str | None:
    """Why a copy stays (a standing entry other than the set's holds it), or ``None``."""
    copy = snapshot.own(copy_id)
    if copy is None or copy.status not in STANDING_STATUSES:
        return "it is not standing"
    if copy.hard_held_by:
        return f"standing {', '.join(copy.hard_held_by)} hold(s) it by a hard REQUIRES"
    pending = snapshot.one_use.get(copy_id)
    if pending is None:
        return "its one use was decided before: the czar retires it once nothing holds it"
    if pending.foundational:
        return "an operator marked it foundational"
    for h in pending.held_by:
        holder = snapshot.entries.get(h.entry_id)
        if holder is not None and holder.status in STANDING_STATUSES and h.holds_at(work):
            return f"standing {h.entry_id} holds it by a REQUIRES that holds"
    return None


def copy_uses(view: SetView, snapshot: Snapshot, work: int) -> list[CopyUse]:
    """Per copy the set depended on (in id order): its source, whether it comes back, and whether
    the set spends the copy's one use (it does unless another standing entry holds the copy)."""
    by_copy: dict[str, list[str]] = {}
    sources: dict[str, str] = {}
    for dependent, copy_id, source_id in view.sourced:
        by_copy.setdefault(copy_id, []).append(dependent)
        sources[copy_id] = source_id
    uses = []
    for copy_id in sorted(by_copy):
        source_id = sources[copy_id]
        source = snapshot.own(source_id)
        rehydrate = source is not None and source.status == EntryStatus.RETIRED.value
        cited = copy_id in view.referenced
        stays = "the set still cites it" if cited else _held_elsewhere(snapshot, copy_id, work)
        dependents = tuple(by_copy[copy_id])
        uses.append(
            CopyUse(
                copy_id,
                source_id,
                rehydrate,
                dependents,
                spent=stays is None,
                justification=(
                    f"{copy_id} is a recall copy of {source_id} (the graph: copied by a recall "
                    "set or the [on_dependency] rule, DERIVED_FROM it, same key and body)",
                    f"{', '.join(dependents)} require(s) it: {RULE_SOURCE}",
                    (
                        f"{source_id} was retired from live, never superseded nor failed"
                        if rehydrate
                        else f"{source_id} is live and resident"
                    ),
                    stays or "no other standing entry holds the copy: its one use is spent",
                ),
            )
        )
    return uses
