"""The cycle recalls through the gate, on the real graph: a superseded or
explored entry never reaches a broadcast as itself (offered, linked, recalled by key or by id);
named by id in an admitted query_memory, it comes back as a recall copy the gate admitted (a
ratified recall set with a commit receipt), broadcast tagged with its original's status; a
conscious item superseded between broadcasts leaves the workspace before the next one."""

from __future__ import annotations

from typing import Any

from kg_context.cycle import (
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    GraphEntrySource,
    SelectionBroadcastCycle,
)
from kg_context.engine import Engine
from kg_context.settings import CycleSettings


def _commit(boundary: Any, pid: str, *entries: dict[str, Any], **extra: Any) -> Any:
    decision = boundary.commit(
        {
            "id": f"{boundary.id}-{pid}",
            "boundary_id": boundary.id,
            "writer_id": "seeder",
            "writer_kind": "agent",
            "targets": ["cycle-recall"],
            "entries": list(entries),
            **extra,
        }
    )
    assert decision.outcome == "commit", decision
    return decision


def test_non_standing_entries_reach_a_broadcast_only_as_gate_admitted_tagged_copies(
    engine: Engine, boundary_id: str
) -> None:
    n = {k: f"{boundary_id}-{k}" for k in ("old", "new", "tried", "hub", "live")}
    boundary = engine.boundary(boundary_id)
    _commit(
        boundary,
        "p1",
        {"id": n["old"], "class": "decision", "key": "db", "body": "use postgres"},
        {"id": n["live"], "class": "decision", "key": "cache", "body": "use redis"},
        {
            "id": n["tried"],
            "class": "scratch",
            "key": "spike",
            "body": "tried sqlite, too slow",
            "attributes": {"explored": True},
        },
    )
    _commit(
        boundary,
        "p2",
        {
            "id": n["new"],
            "class": "decision",
            "key": "db",
            "body": "use neo4j",
            "supersedes": [{"entry_id": n["old"], "reason": "graph"}],
        },
        {
            "id": n["hub"],
            "class": "decision",
            "key": "hub",
            "body": "history of the datastore",
            "derived_from": [
                {"entry_id": n["old"], "essential": False},
                {"entry_id": n["tried"], "essential": False},
            ],
        },
    )
    asks: list[BusProposal] = []
    seen: list[BroadcastContext] = []

    def reader(ctx: BroadcastContext) -> list[BusProposal]:
        seen.append(ctx)
        out, asks[:] = list(asks), []
        return out

    cycle = SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus([BusSubscriber("reader", reader)], default_timeout_s=10.0),
        source=GraphEntrySource(engine.executor, boundary_id),
        gate=boundary,
        settings=CycleSettings(
            min_activation=0.3, workspace_decay=1.0, link_activation_gain=0.9, token_budget=512
        ),
    )
    # Offered, linked (hub links both), and recalled by key: never as themselves.
    cycle.offer_entries([n["old"], n["tried"], n["hub"]], activation=0.9)
    asks.append(BusProposal(kind="query_memory", key="db", priority=0.8))
    asks.append(BusProposal(kind="query_memory", key="spike", priority=0.8))
    first = cycle.run()
    assert [i.id for i in first.context.items] == [n["hub"]]
    assert first.linked_ids == ()  # hub's links are not standing
    assert first.recalled_ids == (n["new"],)  # the current state of key db, not its history
    assert first.recall_admissions == ()
    second = cycle.run()
    assert {i.id for i in second.context.items} == {n["hub"], n["new"]}

    # Named by id: admitted through the gate as recall copies, one set for the asking writer.
    asks.append(
        BusProposal(kind="query_memory", key="why", priority=0.8, entry_ids=(n["old"], n["tried"]))
    )
    third = cycle.run()
    (admission,) = third.recall_admissions
    assert (admission.subscriber, admission.outcome) == ("reader", "commit")
    assert admission.entry_ids == (n["old"], n["tried"]) and admission.receipt_id
    copies = dict(admission.copies)
    assert set(third.recalled_ids) == set(copies.values())
    fourth = cycle.run()
    shown = {i.id: i for i in fourth.context.items}
    assert n["old"] not in shown and n["tried"] not in shown
    old_copy, tried_copy = shown[copies[n["old"]]], shown[copies[n["tried"]]]
    assert old_copy.recall is not None and tried_copy.recall is not None
    assert (old_copy.recall.original_id, old_copy.recall.original_status) == (
        n["old"],
        "superseded",
    )
    assert old_copy.recall.superseded_by == n["new"]
    assert old_copy.recall.admitted_in == admission.set_id
    assert old_copy.recall.receipt_id == admission.receipt_id
    assert old_copy.line.startswith("- [recall decision/superseded] db: use postgres (recalled ")
    assert tried_copy.recall.original_status == "explored"
    assert "[recall scratch/explored]" in tried_copy.line
    # Every broadcast line of a non-standing original is a tagged recall.
    for ctx in [*seen, fourth.context]:
        for item in ctx.items:
            assert item.id not in (n["old"], n["tried"])
    # Asked again while the copy is held: read again, not admitted again.
    asks.append(BusProposal(kind="query_memory", key="why2", priority=0.8, entry_ids=(n["old"],)))
    fifth = cycle.run()
    assert fifth.recall_admissions == ()

    # A conscious entry superseded between broadcasts leaves before the next one.
    assert n["live"] not in shown
    cycle.offer_entries([n["live"]], activation=1.0)
    sixth = cycle.run()
    assert n["live"] in {i.id for i in sixth.context.items}
    _commit(
        boundary,
        "p3",
        {
            "id": f"{boundary_id}-cache2",
            "class": "decision",
            "key": "cache",
            "body": "use memcached",
            "supersedes": [{"entry_id": n["live"], "reason": "simpler"}],
        },
    )
    seventh = cycle.run()
    # p3 is also the recall copies' one use: they left the window with it
    assert set(seventh.stale_ids) == {n["live"], *copies.values()}
    assert not {n["live"], *copies.values()} & {i.id for i in seventh.context.items}


def test_without_a_recall_gate_non_standing_entries_are_reported_not_read(
    engine: Engine, boundary_id: str
) -> None:
    old = f"{boundary_id}-old"
    boundary = engine.boundary(boundary_id)
    _commit(boundary, "p1", {"id": old, "class": "decision", "key": "db", "body": "use postgres"})
    _commit(
        boundary,
        "p2",
        {
            "class": "decision",
            "key": "db",
            "body": "use neo4j",
            "supersedes": [{"entry_id": old, "reason": "graph"}],
        },
    )

    def reader(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="query_memory", key="x", priority=0.8, entry_ids=(old,))]

    cycle = SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus([BusSubscriber("reader", reader)], default_timeout_s=10.0),
        source=GraphEntrySource(engine.executor, boundary_id),
        gate=None,
        settings=CycleSettings(min_activation=0.3),
    )
    result = cycle.run()
    (admission,) = result.recall_admissions
    assert (admission.entry_ids, admission.outcome, admission.copies) == ((old,), None, ())
    assert result.recalled_ids == ()
