"""The selection-broadcast cycle against the real Neo4j: recurrent link activation across
cycles, recall, and bus proposals committed through the real gate.

Everything is seeded through the gate (``engine.boundary(id).commit``), including the status
changes (an operator's set of declared transitions).
"""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.cycle import (
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    CandidateOrigin,
    CompetitionReason,
    GraphEntrySource,
    SelectionBroadcastCycle,
)
from kg_context.engine import Engine
from kg_context.gate.io.boundary import Boundary
from kg_context.settings import CycleSettings
from tests.factories import CROSS_BOUNDARY_ALL, constitution_variant


def commit(boundary: Boundary, pid: str, *entries: dict[str, Any], **extra: Any) -> None:
    decision = boundary.commit(
        {
            "id": f"{boundary.id}-{pid}",
            "boundary_id": boundary.id,
            "writer_id": "seeder",
            "writer_kind": "agent",
            "targets": ["cycle-seed"],
            "entries": list(entries),
            **extra,
        }
    )
    assert decision.outcome == "commit", decision


def test_load_linked_leaves_out_non_standing_entries_and_other_boundaries(
    engine: Engine, boundary_id: str
) -> None:
    """Everything is seeded through the gate: entries, their links, and an operator's set that
    moves them to at_risk, retired and invalidated."""
    n = {name: f"{boundary_id}-{name}" for name in ("a", "b", "gone", "bad")}
    foreign_boundary = engine.boundary(f"{boundary_id}-foreign")
    foreign = f"{foreign_boundary.id}-x"
    commit(foreign_boundary, "f", {"id": foreign, "class": "decision", "key": "f", "body": "f"})
    # a link into another boundary: allowed by this boundary's constitution, consented to by the
    # other boundary's adoption receipt
    receipt = engine.adopt(foreign_boundary.id, operator_id="operator", reason="x", keys=["f"])
    rules = constitution_variant(f"cycle-{boundary_id[-12:]}", CROSS_BOUNDARY_ALL)
    boundary = engine.boundary(boundary_id, constitution=rules)
    commit(
        boundary,
        "seed",
        *[
            {"id": n[k], "class": "decision", "key": f"key-{k}", "body": f"body of {k}"}
            for k in ("b", "gone", "bad")
        ],
    )
    commit(
        boundary,
        "links",
        {
            "id": n["a"],
            "class": "decision",
            "key": "key-a",
            "body": "body of a",
            "requires": [
                {"entry_id": n["b"]},
                {"entry_id": n["gone"]},
                {"entry_id": foreign, "boundary_id": foreign_boundary.id},
            ],
            "derived_from": [{"entry_id": n["bad"]}],
        },
        adoption_receipt_id=receipt,
    )
    moved = boundary.commit(
        {
            "id": f"{boundary_id}-moves",
            "boundary_id": boundary_id,
            "writer_id": "operator",
            "writer_kind": "operator",
            "targets": ["cycle-seed"],
            "transitions": [
                {"entry_id": n["b"], "to": "at_risk", "reason": "test"},
                {"entry_id": n["gone"], "to": "retired", "resident": False, "reason": "test"},
                {"entry_id": n["bad"], "to": "invalidated", "reason": "test"},
            ],
        }
    )
    assert moved.outcome == "commit", moved

    source = GraphEntrySource(engine.executor, boundary_id)
    loaded = source.load_linked([n["a"], n["b"], n["gone"], n["bad"], foreign, "missing"])
    # Links are listed within the boundary (status filtering happens when a target is loaded).
    assert [(r.id, r.status, r.linked_ids) for r in loaded] == [
        (n["a"], "live", (n["b"], n["bad"], n["gone"])),
        (n["b"], "at_risk", ()),
    ]
    assert source.load_linked([]) == []


def test_linked_entries_reactivate_across_cycles_and_bus_facts_pass_the_gate(
    engine: Engine, boundary_id: str
) -> None:
    n = {name: f"{boundary_id}-{name}" for name in ("a", "b", "c", "old", "new")}
    boundary = engine.boundary(boundary_id)
    source_attr = {"source": "test"}
    commit(
        boundary,
        "p1",
        {"id": n["c"], "class": "fact", "key": "c", "body": "c holds", "attributes": source_attr},
        {"id": n["old"], "class": "fact", "key": "k", "body": "old k", "attributes": source_attr},
    )
    commit(
        boundary,
        "p2",
        {
            "id": n["b"],
            "class": "fact",
            "key": "b",
            "body": "b follows from c",
            "derived_from": [{"entry_id": n["c"]}, {"entry_id": n["old"], "essential": False}],
        },
        {
            "id": n["a"],
            "class": "decision",
            "key": "a",
            "body": "decide a",
            "requires": [{"entry_id": n["b"]}],
        },
    )
    commit(
        boundary,
        "p3",
        {
            "id": n["new"],
            "class": "fact",
            "key": "k",
            "body": "new k",
            "attributes": source_attr,
            "supersedes": [{"entry_id": n["old"], "reason": "corrected"}],
        },
    )

    broadcasts: list[list[str]] = []

    def scribe(ctx: BroadcastContext) -> list[BusProposal]:
        broadcasts.append([i.id for i in ctx.items])
        if n["b"] in {i.id for i in ctx.items}:
            return [
                BusProposal(
                    kind="admit_fact",
                    key="b-checked",
                    priority=0.9,
                    text="b was checked against c",
                    entry_ids=(n["b"],),
                )
            ]
        return []

    source = GraphEntrySource(engine.executor, boundary_id)
    cycle = SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus([BusSubscriber("scribe", scribe)], default_timeout_s=10.0),
        source=source,
        gate=boundary,
        settings=CycleSettings(
            min_activation=0.5, workspace_decay=1.0, link_activation_gain=0.8, token_budget=256
        ),
    )
    cycle.offer_entries([n["a"]], activation=1.0)

    first = cycle.run()
    assert first.competition.reasons() == {n["a"]: CompetitionReason.ADMITTED}
    assert first.linked_ids == (n["b"],)
    (waiting,) = cycle.buffer.ranked()
    assert (waiting.origin, waiting.status, waiting.activated_by) == (
        CandidateOrigin.LINKED,
        "live",
        (n["a"],),
    )
    assert first.gate == ()

    second = cycle.run()
    assert second.competition.reasons() == {n["b"]: CompetitionReason.ADMITTED}
    # b's explicit links come back status-tagged: c live; old, superseded by the gate's p3, is
    # not read as itself (only a recall the gate admits brings it back: test_cycle_recall_gate).
    assert {c.id: c.status for c in cycle.buffer.ranked()} == {n["c"]: "live"}
    (outcome,) = second.gate
    assert (outcome.outcome, outcome.subscriber, outcome.bus_kind) == (
        "commit",
        "scribe",
        "admit_fact",
    )
    (fact,) = source.load_linked(outcome.entry_ids)
    assert (fact.key, fact.entry_class, fact.status, fact.linked_ids) == (
        "b-checked",
        "fact",
        "live",
        (n["b"],),
    )

    third = cycle.run()
    assert third.competition.reasons() == {n["c"]: CompetitionReason.ADMITTED}
    assert broadcasts[:2] == [[n["a"]], [n["a"], n["b"]]]
    assert set(broadcasts[2]) == {n["a"], n["b"], n["c"]}
    # The scribe proposed the same key again: penalized (0.9 - 0.2) but still above the bar, so
    # it went to the gate again under a fresh proposal id (the gate decides what to keep).
    (again,) = third.arbitration.accepted
    assert again.penalty == pytest.approx(0.2)
    assert again.effective_priority == pytest.approx(0.7)
    assert [g.proposal_id for g in third.gate] == [f"{cycle.run_id}-b3-p0"]


def test_admitted_query_memory_recalls_entries_by_key(engine: Engine, boundary_id: str) -> None:
    n = {name: f"{boundary_id}-{name}" for name in ("a", "r")}
    boundary = engine.boundary(boundary_id)
    commit(
        boundary,
        "p1",
        {"id": n["a"], "class": "decision", "key": "a", "body": "decide a"},
        {"id": n["r"], "class": "fact", "key": "r", "body": "r", "attributes": {"source": "t"}},
    )

    def recaller(ctx: BroadcastContext) -> list[BusProposal]:
        return [
            BusProposal(kind="query_memory", key="r", priority=0.7),
            BusProposal(kind="query_memory", key="nothing-has-this-key", priority=0.7),
        ]

    cycle = SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus([BusSubscriber("recaller", recaller)], default_timeout_s=10.0),
        source=GraphEntrySource(engine.executor, boundary_id),
        gate=boundary,
        settings=CycleSettings(min_activation=0.5),
    )
    cycle.offer_entries([n["a"]], activation=0.9)
    result = cycle.run()
    assert result.recalled_ids == (n["r"],)
    (recalled,) = cycle.buffer.ranked()
    assert (recalled.origin, recalled.status) == (CandidateOrigin.RECALLED, "live")
    assert recalled.activation == pytest.approx(0.7)
    second = cycle.run()
    assert second.competition.reasons()[n["r"]] is CompetitionReason.ADMITTED
