"""The set constructor and the gate's decisions as pure functions (no database)."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.contracts import Proposal, parse_proposal
from kg_context.gate.pure.decision import evaluate
from kg_context.gate.pure.set_constructor import construct_sets, implicit_set_id
from kg_context.gate.pure.snapshot import EntryState, LockedBoundary, Snapshot
from tests.factories import entry, proposal

B = "b-unit"


def _p(*entries: dict[str, Any], **kw: Any) -> Proposal:
    return parse_proposal(proposal(B, *entries, **kw))


def _snapshot(**entries: EntryState) -> Snapshot:
    boundary = LockedBoundary(B, 0, "local", "2", None, len(entries), 0, None)
    return Snapshot(boundary=boundary, entries=dict(entries))


def _live(entry_id: str, key: str = "k", writer: str = "w") -> EntryState:
    return EntryState(entry_id, B, key, "live", "decision", writer, True, tokens=3)


def test_shared_targets_and_dependencies_close_into_minimal_sets() -> None:
    a = _p(entry(id="a"), targets=["db"])
    b = _p(entry(), targets=["db"])
    c = _p(entry(derived_from=[{"entry_id": "a"}]), targets=["api"])
    d = _p(entry(), targets=["ui"])
    built = construct_sets([a, b, c, d], window=256)
    assert [[p.id for p in s.proposals] for s in built.sets] == [[a.id, b.id, c.id], [d.id]]
    assert built.sets[0].set_id == implicit_set_id([a.id, b.id, c.id])
    assert construct_sets([c, b, a, d], window=256).sets[0].set_id == built.sets[0].set_id


def test_the_window_bounds_grouping_by_submission_distance() -> None:
    first, gap, last = _p(targets=["db"]), _p(targets=["x"]), _p(targets=["db"])
    assert len(construct_sets([first, gap, last], window=2).sets) == 3
    assert len(construct_sets([first, gap, last], window=3).sets) == 2


def test_unplaced_proposals_are_reported_and_explicit_sets_are_never_merged() -> None:
    """Two explicit sets on one target stay two sets, decided in order (whether together they
    fragment a change is the FRAGMENTATION predicate's question, over ratified sets too); a
    proposal without a set id joins the nearest earlier proposal it shares a target with, and
    never bridges two explicit sets."""
    nowhere = _p(entry(), targets=[])
    one = _p(set_id="S1", targets=["db"])
    two = _p(set_id="S2", targets=["db"])
    loose = _p(targets=["db"])
    built = construct_sets([nowhere, one, two, loose], window=256)
    assert built.unplaced == [nowhere]
    assert [(s.set_id, [p.id for p in s.proposals]) for s in built.sets] == [
        ("S1", [one.id]),
        ("S2", [two.id, loose.id]),
    ]


def test_explicit_sets_linked_only_by_dependency_commit_in_order_not_merged() -> None:
    one = _p(entry(id="x1"), set_id="S1", targets=["a"])
    two = _p(entry(derived_from=[{"entry_id": "x1"}]), set_id="S2", targets=["b"])
    built = construct_sets([one, two], window=256)
    assert [s.set_id for s in built.sets] == ["S1", "S2"]
    assert [len(s.proposals) for s in built.sets] == [1, 1]


def test_later_sets_in_a_batch_see_earlier_ones_and_seq_advances_by_one() -> None:
    base = _live("base", key="db")
    sets = construct_sets(
        [
            _p(
                entry(id="n1", key="db", supersedes=[{"entry_id": "base", "reason": "r"}]),
                set_id="A",
            ),
            _p(
                entry(id="n2", key="db", supersedes=[{"entry_id": "n1", "reason": "r"}]), set_id="B"
            ),
            _p(
                entry(id="n3", key="db", supersedes=[{"entry_id": "base", "reason": "r"}]),
                set_id="C",
            ),
        ],
        window=1,
    ).sets
    snapshot = _snapshot(base=base)
    decisions, plan = evaluate(
        sets,
        snapshot,
        load_constitution(),
        lambda texts: [1] * len(texts),
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
    )
    assert [(d.outcome, d.seq, d.reason_code) for d in decisions] == [
        ("commit", 1, None),
        ("commit", 2, None),
        ("halt", None, "SUPERSESSION_TARGET"),  # base was superseded by A earlier in the batch
    ]
    assert plan.boundary["seq"] == 2
    assert snapshot.entries["base"].status == "superseded"
    assert snapshot.entries["n1"].status == "superseded"
    assert [r["props"]["kind"] for r in plan.receipts].count("commit") == 2
    assert plan.sets[1]["prev_id"] == "A"


def test_gate_decisions_are_deterministic() -> None:
    proposals = [_p(entry(id=f"e{i}"), set_id=f"S{i}") for i in range(5)]

    def run() -> Any:
        sets = construct_sets(proposals, 256).sets
        decisions, plan = evaluate(
            sets,
            _snapshot(),
            load_constitution(),
            lambda t: [2] * len(t),
            now="2026-01-01T00:00:00+00:00",
            gateway_id="g",
        )
        return decisions, plan.entries, plan.receipts

    assert run() == run()


def test_a_compaction_set_joins_nothing_by_target_or_dependency() -> None:
    """A writer's pending proposal that references the interface the czar's set creates (or
    shares a target with it) is a set of its own: it can neither ride in nor sink the czar's."""
    czar = _p(
        entry(cls="interface", id="iface", derived_from=[{"entry_id": "old"}]),
        writer_id="czar",
        writer_kind="czar",
        set_id="czar-set",
        targets=["t"],
        kind="compaction",
    )
    rider = _p(entry(id="r", requires=[{"entry_id": "iface"}]), targets=["t"])
    built = construct_sets([czar, rider], 256)
    assert [[p.id for p in s.proposals] for s in built.sets] == [[czar.id], [rider.id]]
    state = _p(entry(id="s", requires=[{"entry_id": "iface"}]), targets=["t"])
    plain = _p(entry(id="iface2"), targets=["t"])
    assert len(construct_sets([plain, state], 256).sets) == 1  # the neighbour: joined
