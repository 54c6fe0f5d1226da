"""Which recall copies a work set's commit retires (pure): the lease end decides, a citation, a
foundational mark or a holding edge from what stays keeps a copy, and a kept copy keeps what it
holds."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.one_use import spent_copies, track_copies
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import EntryState, Holder, LockedBoundary, OneUseCopy, Snapshot
from kg_context.gate.pure.verdicts import SetView

C = load_constitution()
ROOTS = C.root_class_names()


def _snapshot(*copies: OneUseCopy, others: tuple[str, ...] = ()) -> Snapshot:
    snap = Snapshot(boundary=LockedBoundary("b", 9, "local", C.version, None, 3, 0, "s9"))
    for copy in copies:
        snap.entries[copy.id] = EntryState(copy.id, "b", "k", "live", "scratch", "w", True)
        snap.one_use[copy.id] = copy
    for other in others:
        snap.entries[other] = EntryState(other, "b", "k", "live", "fact", "w", True)
    snap.boundary.one_use_pending = sorted(snap.one_use)
    return snap


def _view(*entries: dict[str, Any], kind: str = "state") -> SetView:
    proposal = Proposal.model_validate(
        {
            "id": "p",
            "boundary_id": "b",
            "writer_id": "w",
            "writer_kind": "agent",
            "targets": ["t"],
            "kind": kind,
            "entries": list(entries) or [{"class": "goal", "key": "g", "body": "work"}],
        }
    )
    found = tuple(
        (proposal, i, e) for i, e in zip(proposal.entry_ids(), proposal.entries, strict=True)
    )
    return SetView(ClosedSet("s", False, (proposal,)), found, {}, False)


def _spent(snap: Snapshot, view: SetView, work: int) -> list[str]:
    return [s.entry_id for s in spent_copies(snap, view, work)]


def test_only_copies_whose_lease_ended_leave_and_each_is_decided_once() -> None:
    snap = _snapshot(OneUseCopy("c1", 4), OneUseCopy("c2", 5))
    assert _spent(snap, _view(), 4) == ["c1"]
    assert snap.boundary.one_use_pending == ["c2"]
    assert _spent(snap, _view(), 5) == ["c2"]
    assert snap.boundary.one_use_pending == [] and _spent(snap, _view(), 6) == []


def test_a_cited_or_foundational_copy_stays_and_keeps_what_it_holds() -> None:
    held = OneUseCopy("dep", 4, held_by=(Holder("c1", "soft", 4),))
    snap = _snapshot(OneUseCopy("c1", 4), held, OneUseCopy("c2", 4, foundational=True))
    cite = {"class": "goal", "key": "g", "body": "b", "requires": [{"entry_id": "c1"}]}
    assert _spent(snap, _view(cite), 4) == []
    # nothing cites them: the copy and what only it holds leave together
    snap = _snapshot(OneUseCopy("c1", 4), held)
    assert _spent(snap, _view(), 4) == ["c1", "dep"]


def test_a_holding_edge_from_what_stays_keeps_a_copy_an_ended_lease_does_not() -> None:
    hard = OneUseCopy("a", 4, held_by=(Holder("f", "hard", None),))
    soft_ended = OneUseCopy("b", 4, held_by=(Holder("f", "soft", 3),))
    soft_holds = OneUseCopy("c", 4, held_by=(Holder("f", "soft", 4),))
    snap = _snapshot(hard, soft_ended, soft_holds, others=("f",))
    assert _spent(snap, _view(), 4) == ["b"]


def test_a_recall_set_tracks_its_one_set_copies_and_later_edges_into_them() -> None:
    snap = _snapshot()
    copy = {"id": "x", "class": "scratch", "key": "k", "body": "b", "expires_after": 1}
    longer = {"id": "y", "class": "scratch", "key": "k", "body": "b", "expires_after": 3}
    track_copies(snap, _view(copy, longer, kind="recall"), 7, ROOTS)
    assert snap.boundary.one_use_pending == ["x"] and snap.one_use["x"].expires_after_seq == 8
    track_copies(snap, _view({"id": "z", "class": "scratch", "key": "k", "body": "b",
                              "expires_after": 1}), 7, ROOTS)  # fmt: skip
    assert "z" not in snap.one_use  # not a recall set
    holder = {"id": "h", "class": "fact", "key": "k", "body": "b",
              "attributes": {"source": "t"}, "requires": [{"entry_id": "x"}]}  # fmt: skip
    track_copies(snap, _view(holder), 7, ROOTS)
    assert snap.one_use["x"].held_by == (Holder("h", "hard", None),)  # the default policy
