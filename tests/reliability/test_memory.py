"""Memory of a long-running engine: the gate keeps the proposals it submitted in memory only
until they are decided, so a process's RSS does not grow with every set it commits and one
writer's large proposals cannot pin gigabytes."""

from __future__ import annotations

from typing import Any

from kg_context.engine import Engine


def _proposal(boundary_id: str, i: int) -> dict[str, Any]:
    return {
        "id": f"p-{i}",
        "boundary_id": boundary_id,
        "writer_id": "planner",
        "writer_kind": "agent",
        "set_id": f"s-{i}",
        "entries": [{"class": "decision", "key": f"k{i}", "body": "x" * 10_000}],
    }


def test_decided_proposals_are_not_kept_in_memory(engine: Engine, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    store = engine._gate_store
    for i in range(30):
        assert boundary.commit(_proposal(boundary_id, i)).outcome == "commit"
    boundary.submit(
        [_proposal(boundary_id, i) for i in range(30, 40)]
    )  # pending: kept until closed
    kept = {key for key in store._submitted if key[0] == boundary_id}
    assert kept == {(boundary_id, f"p-{i}") for i in range(30, 40)}
    assert len(boundary.close()) == 10
    assert boundary.commit(_proposal(boundary_id, 3)).outcome == "commit"  # a replay
    assert not [key for key in store._submitted if key[0] == boundary_id]
