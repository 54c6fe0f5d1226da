"""A batch written in parts (the server writes one part while the gate decides the next): the
graph and the ledger are those of the batch written whole, whatever the part size."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.gate.io import store
from tests.factories import entry, proposal


def _chain(boundary_id: str, sets: int) -> list[dict[str, Any]]:
    """Sets that each supersede, derive from and require an entry of the set before."""
    out = []
    previous: list[str] = []
    for i in range(sets):
        ids = [f"{boundary_id}/s{i}/{n}" for n in ("decision", "plan", "constraint")]
        links: list[dict[str, Any]] = [{}, {}, {}]
        if previous:
            links = [
                {"supersedes": [{"entry_id": previous[0], "reason": f"revision {i}"}]},
                {"derived_from": [{"entry_id": previous[1], "essential": True}]},
                {"requires": [{"entry_id": previous[2], "policy": "soft", "lease_sets": 50}]},
            ]
        out.append(
            proposal(
                boundary_id,
                entry("decision", key="chain", body=f"decision {i}", id=ids[0], **links[0]),
                entry("plan", key=f"plan-{i}", body=f"plan {i}", id=ids[1], **links[1]),
                entry("constraint", key=f"c-{i}", body=f"constraint {i}", id=ids[2], **links[2]),
                targets=[f"t{i}"],
                set_id=f"{boundary_id}/set{i}",
            )
        )
        previous = ids
    return out


def _graph(engine: Any, boundary_id: str) -> dict[str, Any]:
    boundary = engine.boundary(boundary_id)
    window = boundary.window()
    state = boundary.state()
    return {
        "seq": state.seq,
        "work_seq": state.work_seq,
        "window": sorted((e.id.replace(boundary_id, "B"), e.status) for e in window.entries),
        "tokens": window.total_tokens,
        "index": [(line.seq, line.summary.replace(boundary_id, "B")) for line in window.index],
    }


@pytest.mark.parametrize("part", [1, 2, 3])
def test_a_batch_written_in_parts_is_the_batch_written_whole(
    engine: Any, boundary_id: str, part: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole_id, parts_id = f"{boundary_id}-whole", f"{boundary_id}-parts"
    monkeypatch.setattr(store, "PLAN_PART_SETS", 1000)
    whole = engine.boundary(whole_id, czar_every_commits=0)
    assert all(d.outcome == "commit" for d in whole.commit_many(_chain(whole_id, 7)))
    monkeypatch.setattr(store, "PLAN_PART_SETS", part)
    parts = engine.boundary(parts_id, czar_every_commits=0)
    decisions = parts.commit_many(_chain(parts_id, 7))
    assert [d.outcome for d in decisions] == ["commit"] * 7
    assert [d.seq for d in decisions] == list(range(1, 8))

    ours, theirs = _graph(engine, parts_id), _graph(engine, whole_id)
    assert ours["seq"] == 7
    assert ours == theirs
    # the ledger covers the NEXT links across parts and the flips of entries made a part before
    verified = parts.verify_ledger()
    assert verified.ok, verified
