"""Reading history against the real Neo4j: the index, the ledger walk, as-of, search,
and the error-observability audit (false retirements, resurrections)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kg_context.db.catalog import Catalog
from kg_context.db.connection import open_driver
from kg_context.engine import Engine
from kg_context.errors import StateError
from kg_context.record.history import as_of, index, search, walk
from kg_context.record.invalidation import invalidate
from kg_context.record.observability import audit
from tests.factories import depend_on_retired, entry, moves, proposal

FIXTURES = Path(__file__).parent / "history_fixtures"


@pytest.fixture(scope="module")
def ungoverned(neo4j_target: Any) -> Iterator[Engine]:
    with Engine(open_driver(neo4j_target), neo4j_target, catalog=Catalog(FIXTURES)) as engine:
        yield engine


def _states(engine: Any, boundary_id: str) -> dict[str, tuple[str, bool]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {r["id"]: (r["status"], bool(r["resident"])) for r in rows}


def _history(engine: Any, b: str) -> dict[int, dict[str, tuple[str, bool]]]:
    """Twelve sets of supersession, retirement, residency moves and an invalidation; the state
    of every entry right after each seq, read from current status at the time."""
    boundary = engine.boundary(b)
    seen: dict[int, dict[str, tuple[str, bool]]] = {}

    def commit(data: dict[str, Any]) -> Any:
        decision = boundary.commit(data)
        assert decision.outcome == "commit", decision
        seen[decision.seq] = _states(engine, b)
        return decision

    commit(proposal(b, entry(key="db", body="Use Postgres", id=f"{b}-db1")))
    commit(proposal(b, entry(cls="goal", key="ship", body="ship v1", id=f"{b}-goal")))
    commit(
        proposal(
            b,
            entry(
                key="db",
                body="Use Neo4j: the model is a graph",
                id=f"{b}-db2",
                supersedes=[{"entry_id": f"{b}-db1", "reason": "graph model"}],
                derived_from=[{"entry_id": f"{b}-db1", "essential": False}],
            ),
        )
    )
    commit(
        proposal(
            b,
            entry(
                cls="plan",
                key="schema",
                body="label per class",
                id=f"{b}-plan",
                derived_from=[{"entry_id": f"{b}-db2", "essential": True}],
            ),
        )
    )
    commit(proposal(b, entry(cls="scratch", key="tmp", body="a dead end", id=f"{b}-tmp")))
    commit(
        moves(
            b,
            "czar-retire",
            "czar",
            {
                "entry_id": f"{b}-tmp",
                "to": "retired",
                "resident": False,
                "case": "UNREACHABLE",
                "justification": ["no root path"],
            },
        )
    )
    commit(moves(b, "park", "operator", {"entry_id": f"{b}-goal", "resident": False}))
    commit(proposal(b, entry(key="cache", body="no cache", id=f"{b}-cache")))
    blast = invalidate(
        boundary, f"{b}-db2", reason="the graph model was wrong", writer_id="operator"
    )
    assert blast.decision.outcome == "commit"
    seen[blast.decision.seq] = _states(engine, b)
    commit(
        moves(b, "reval", "agent", {"entry_id": f"{b}-plan", "to": "revalidated"})
        | {"revalidates": [f"{b}-db2"]}
    )
    commit(moves(b, "unpark", "operator", {"entry_id": f"{b}-goal", "resident": True}))
    commit(
        proposal(
            b,
            entry(
                key="cache",
                body="a read cache",
                id=f"{b}-cache2",
                supersedes=[{"entry_id": f"{b}-cache", "reason": "latency"}],
            ),
        )
    )
    return seen


def test_as_of_reproduces_the_window_at_every_seq(engine: Any, boundary_id: str) -> None:
    seen = _history(engine, boundary_id)
    boundary = engine.boundary(boundary_id)
    assert sorted(seen) == list(range(1, 13))
    for seq, expected in seen.items():
        view = as_of(boundary, seq)
        assert view.states() == expected, seq
        assert {e.id for e in view.window} == {i for i, (_, r) in expected.items() if r}
    assert as_of(boundary, 0).entries == []
    with pytest.raises(StateError, match="not in its ledger"):
        as_of(boundary, 13)
    # The derivation does not read current status: at seq 3 db2 was live, now it is invalidated.
    at3 = as_of(boundary, 3).states()
    assert at3[f"{boundary_id}-db2"] == ("live", True)
    assert at3[f"{boundary_id}-db1"] == ("superseded", False)
    assert _states(engine, boundary_id)[f"{boundary_id}-db2"] == ("invalidated", False)


def test_index_and_ledger_walk_forwards_and_backwards(engine: Any, boundary_id: str) -> None:
    b = boundary_id
    _history(engine, b)
    boundary = engine.boundary(b)
    lines = index(boundary)
    assert [line.seq for line in lines] == list(range(1, 13))
    assert all(line.status == "ratified" for line in lines)
    # The governed index line (typed content only); the set's own summary is on the walk.
    assert lines[8].kind == "invalidation" and "1 -> at_risk; 1 -> invalidated" in lines[8].summary
    assert "1 at risk (essential)" in walk(boundary, lines[8].set_id).summary
    assert lines[0].standing == "1 superseded"
    assert [line.seq for line in index(boundary, from_seq=4, to_seq=6)] == [4, 5, 6]

    third = walk(boundary, lines[2].set_id)  # db2 superseded db1
    assert [(r.entry, r.other) for r in third.superseded] == [(f"{b}-db2", f"{b}-db1")]
    assert [(r.other, r.edge) for r in third.depended_on] == [(f"{b}-db1", "DERIVED_FROM")]
    assert (third.previous_set_id, third.next_set_id) == (lines[1].set_id, lines[3].set_id)
    later = {(r.entry, r.to_status, r.set_id) for r in third.transitioned_later}
    assert later == {(f"{b}-db2", "invalidated", lines[8].set_id)}
    assert [(r.other, r.seq) for r in third.depended_on_by] == [(f"{b}-plan", 4)]
    assert third.later_sets == sorted([lines[3].set_id, lines[8].set_id])
    assert third.earlier_sets == [lines[0].set_id]
    first = walk(boundary, lines[0].set_id)
    assert [(r.other, r.reason, r.seq) for r in first.superseded_by] == [
        (f"{b}-db2", "graph model", 3)
    ]
    assert any("superseded by" in line for line in first.lines())
    with pytest.raises(StateError):
        walk(boundary, f"{b}-no-such-set")


def test_search_returns_set_ids_with_status_not_passages(engine: Any, boundary_id: str) -> None:
    b = boundary_id
    _history(engine, b)
    hits = search(engine.boundary(b), "Use Postgres", k=5)
    by_entry = {h.entry_id: h for h in hits}
    hit = by_entry[f"{b}-db1"]
    assert (hit.status, hit.set_seq, hit.superseded_by) == ("superseded", 1, f"{b}-db2")
    assert hit.line().startswith(f"matched in set {hit.set_id} (seq 1), superseded")
    assert "Postgres" not in hit.line()


def test_false_retirements_and_resurrections_are_observable(
    engine: Any, ungoverned: Engine, boundary_id: str
) -> None:
    b = boundary_id
    _history(engine, b)
    boundary = engine.boundary(b)
    clean = audit(boundary)
    assert clean.counts() == {
        "false_retirement_candidates": 0,
        "resurrections": 0,
        "unjustified_retirements": 0,
    }
    # A later set declares a dependency on the retired scratch entry: it was still needed. The
    # gate halts it (retired state would become load-bearing); the operator approves it.
    approved = depend_on_retired(engine, b, f"{b}-tmp")
    found = audit(boundary)
    (candidate,) = found.false_retirements
    assert (candidate.entry_id, candidate.retired_at_seq) == (f"{b}-tmp", 6)
    assert (candidate.case, candidate.justification) == ("UNREACHABLE", ("no root path",))
    assert [(e["kind"], e["by"], e["seq"]) for e in candidate.evidence] == [
        ("dependency", f"{b}-retry", approved.seq)
    ]
    # An ungoverned write puts it back as live: a resurrection.
    ungoverned.executor.write("ungoverned/resurrect", entry_id=f"{b}-tmp")
    (back,) = audit(boundary).resurrections
    assert (back.entry_id, back.status, back.ledger_status, back.ledger_resident) == (
        f"{b}-tmp",
        "live",
        "retired",
        False,
    )
