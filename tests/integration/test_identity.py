"""Ids are scoped to their boundary. Two boundaries both use ``p-1``, ``s-1`` and
``e-1``; the same work runs again in a second boundary; writers and targets are per boundary;
the ids the gate derives (halts, receipts) stay unique across the database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import Neo4jExecutor
from kg_context.record.history import walk
from tests.factories import entry, proposal

FIXTURES = Path(__file__).parent / "identity_fixtures"


@pytest.fixture(scope="module")
def fixtures(neo4j_target: Target) -> Iterator[Neo4jExecutor]:
    with open_driver(neo4j_target) as driver:
        yield Neo4jExecutor(
            driver, database=neo4j_target.database, uri=neo4j_target.uri, catalog=Catalog(FIXTURES)
        )


def _work(boundary_id: str) -> list[dict[str, Any]]:
    """The same session, id for id, whatever the boundary: a decision, its supersession, and a
    second writer's set on the same target."""
    return [
        proposal(
            boundary_id,
            entry(key="db", body="Use Postgres", id="e-1"),
            pid="p-1",
            set_id="s-1",
            writer_id="planner",
            targets=["db-schema"],
        ),
        proposal(
            boundary_id,
            entry(
                key="db",
                body="Use Neo4j",
                id="e-2",
                supersedes=[{"entry_id": "e-1", "reason": "graph walks"}],
            ),
            pid="p-2",
            set_id="s-2",
            writer_id="planner",
            targets=["db-schema"],
        ),
        proposal(
            boundary_id,
            entry(cls="goal", key="ship", body="ship v1", id="e-3"),
            pid="p-3",
            set_id="s-3",
            writer_id="reviewer",
            targets=["db-schema"],
        ),
    ]


def test_two_boundaries_use_the_same_proposal_set_and_entry_ids(
    engine: Any, boundary_id: str, fixtures: Neo4jExecutor
) -> None:
    a_id, b_id = f"{boundary_id}-a", f"{boundary_id}-b"
    a, b = engine.boundary(a_id), engine.boundary(b_id)
    first_a, first_b = a.commit(_work(a_id)[0]), b.commit(_work(b_id)[0])
    assert (first_a.outcome, first_a.set_id, first_a.seq) == ("commit", "s-1", 1)
    assert (first_b.outcome, first_b.set_id, first_b.seq) == ("commit", "s-1", 1)
    assert first_a.entry_ids == first_b.entry_ids == ("e-1",)

    # A supersedes its e-1; B's e-1 (same id) is untouched.
    assert a.commit(_work(a_id)[1]).outcome == "commit"
    (old_a,) = fixtures.read("identity/entry", boundary_id=a_id, id="e-1")
    (old_b,) = fixtures.read("identity/entry", boundary_id=b_id, id="e-1")
    assert (old_a["status"], old_a["resident"]) == ("superseded", False)
    assert (old_b["status"], old_b["resident"], old_b["body"]) == ("live", True, "Use Postgres")

    # Each boundary reads its own decision and its own set under the shared ids.
    decided_a, decided_b = a.decision("p-1"), b.decision("p-1")
    assert decided_a is not None and decided_b is not None
    assert (decided_a.boundary_id, decided_b.boundary_id) == (a_id, b_id)
    assert decided_a.receipt_id != decided_b.receipt_id
    walked_a, walked_b = walk(a, "s-1"), walk(b, "s-1")
    assert (walked_a.boundary_id, walked_b.boundary_id) == (a_id, b_id)
    assert [r.other for r in walked_a.superseded_by] == ["e-2"]
    assert walked_b.superseded_by == ()


def test_the_same_work_runs_again_in_a_second_boundary(
    engine: Any, boundary_id: str, fixtures: Neo4jExecutor
) -> None:
    """Re-running a session in another boundary does not fail with "already recorded with other
    content": every decision repeats, and writers and targets are the boundary's own."""
    outcomes = {}
    for b in (f"{boundary_id}-first", f"{boundary_id}-again"):
        boundary = engine.boundary(b)
        outcomes[b] = [
            (d.outcome, d.set_id, d.seq, d.entry_ids) for d in map(boundary.commit, _work(b))
        ]
        writers = fixtures.read("identity/writers", boundary_id=b)
        assert [(w["id"], w["kind"], w["sets"]) for w in writers] == [
            ("planner", "agent", 2),
            ("reviewer", "agent", 1),
        ]
        (target,) = fixtures.read("identity/targets", boundary_id=b)
        assert (target["key"], set(target["entry_boundaries"])) == ("db-schema", {b})
    first, again = outcomes.values()
    assert first == again
    assert [o[0] for o in first] == ["commit"] * 3


def test_halt_and_receipt_ids_carry_the_boundary_and_stay_unique(
    engine: Any, boundary_id: str
) -> None:
    """Two boundaries halt their own set ``s-h``: the gate derives distinct halt and receipt
    ids (``<boundary>/<set>/halt/1``), and each operator resolves their own halt."""
    halts = {}
    for b in (f"{boundary_id}-x", f"{boundary_id}-y"):
        boundary = engine.boundary(b)
        decision = boundary.commit(
            proposal(
                b,
                entry(key="db", supersedes=[{"entry_id": "nope", "reason": "r"}]),
                pid="p-h",
                set_id="s-h",
            )
        )
        assert decision.outcome == "halt"
        assert decision.halt_id == f"{b}/s-h/halt/1"
        assert decision.receipt_id.startswith(f"{b}/s-h/")
        halts[b] = decision.halt_id
    for b, halt_id in halts.items():
        (listed,) = engine.halts.list(boundary_id=b)
        assert listed.id == halt_id and listed.set_id == "s-h"
        shown = engine.halts.show(halt_id)
        assert shown.set.boundary_id == b
        resolved = engine.halts.resolve(halt_id, "reject", operator_id="operator", reason="no")
        assert resolved.halt_id == halt_id
        assert engine.halts.list(boundary_id=b) == []


def test_a_boundary_id_with_a_slash_cannot_forge_another_boundarys_derived_ids(
    engine: Any, boundary_id: str
) -> None:
    """Boundary ``x/y`` with set ``z`` and boundary ``x`` with set ``y/z``: joined by "/" both
    would derive ``x/y/z/halt/1``; the boundary part is escaped, so both halts are recorded."""
    first, second = f"{boundary_id}-x/y", f"{boundary_id}-x"
    decisions = []
    for b, set_id in ((first, "z"), (second, "y/z")):
        boundary = engine.boundary(b)
        decision = boundary.commit(
            proposal(
                b,
                entry(key="db", supersedes=[{"entry_id": "nope", "reason": "r"}]),
                pid="p-forge",
                set_id=set_id,
            )
        )
        assert decision.outcome == "halt"
        decisions.append(decision)
    assert decisions[0].halt_id != decisions[1].halt_id
    assert decisions[0].receipt_id != decisions[1].receipt_id
