"""Ontology migration against the real Neo4j: after 100 sets an operator splits a
class; its standing entries go at_risk, then move to the new classes (or are revalidated) through
governed sets only."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.errors import InputValidationError, StateError
from kg_context.record.history import as_of, index
from kg_context.record.ontology import change, migrate
from tests.factories import entry, proposal


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def test_split_after_100_sets_moves_old_class_entries_through_governed_sets(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine  # a czar-free boundary: it scripts its own czar set and counts seqs
    b = boundary_id
    boundary = engine.boundary(b)
    facts: list[str] = []
    for i in range(1, 101):
        ids = [f"{b}-d{i}"]
        entries = [entry(key=f"d{i}", body=f"decision {i}", id=ids[0])]
        if i % 4 == 0:
            fid = f"{b}-f{i}"
            supersedes = []
            if i % 20 == 0:  # a revised fact supersedes an earlier one
                supersedes = [{"entry_id": facts[-1], "reason": "revised"}]
            key = f"f{i - 4}" if supersedes else f"f{i}"
            entries.append(
                entry(
                    cls="fact",
                    key=key,
                    body=f"requirement or observation {i}",
                    id=fid,
                    supersedes=supersedes,
                    attributes={"source": "log"},
                )
            )
            facts.append(fid)
        decision = boundary.commit(proposal(b, *entries))
        assert (decision.outcome, decision.seq) == ("commit", i)
    retired = facts[1]
    czar = boundary.commit(
        {
            "id": f"{b}-czar",
            "boundary_id": b,
            "writer_id": "czar",
            "writer_kind": "czar",
            "targets": ["compaction"],
            "transitions": [
                {
                    "entry_id": retired,
                    "to": "retired",
                    "resident": False,
                    "reason": "lease over",
                    "case": "UNREACHABLE",
                    "justification": ["lease over, no root path"],
                }
            ],
        }
    )
    assert czar.outcome == "commit"
    before = _entries(engine, b)
    standing = sorted(i for i in facts if before[i]["status"] == "live")
    out_of_play = {i: before[i]["status"] for i in facts if i not in standing}
    assert len(standing) >= 15 and set(out_of_play.values()) == {"superseded", "retired"}

    with pytest.raises(InputValidationError, match="unknown class"):
        change(boundary, "split", "fact", ["fact", "bug"], reason="x", operator_id="operator")

    split = change(
        boundary,
        "split",
        "fact",
        ["fact", "constraint"],
        reason="requirements are constraints, not observations",
        operator_id="operator",
    )
    assert split.decision.outcome == "commit"
    assert sorted(split.at_risk) == standing
    mid = _entries(engine, b)
    assert {i: mid[i]["status"] for i in standing} == dict.fromkeys(standing, "at_risk")
    assert {i: mid[i]["status"] for i in out_of_play} == out_of_play  # never reread
    assert mid[split.change_entry_id]["class"] == "pin"
    assert index(boundary)[-1].kind == "ontology"

    kept = standing[-1]
    to_constraint = standing[:-1:2]
    to_fact = standing[1:-1:2]
    weak = boundary.commit(
        {
            "id": f"{b}-weak",
            "boundary_id": b,
            "writer_id": "w",
            "writer_kind": "agent",
            "targets": ["t"],
            "transitions": [{"entry_id": kept, "to": "revalidated", "reason": "still a fact"}],
        }
    )
    assert (weak.outcome, weak.reason_code) == ("halt", "WEAK_REVALIDATION")
    kept_decision = boundary.commit(
        {
            "id": f"{b}-keep",
            "boundary_id": b,
            "writer_id": "w",
            "writer_kind": "agent",
            "targets": ["t"],
            "revalidates": [split.change_entry_id],
            "transitions": [{"entry_id": kept, "to": "revalidated", "reason": "an observation"}],
        }
    )
    assert kept_decision.outcome == "commit"
    with pytest.raises(StateError, match="migration moves at-risk"):
        migrate(boundary, split.change_entry_id, {kept: "constraint"}, reason="x", writer_id="o")
    moves = {i: "constraint" for i in to_constraint} | {i: "fact" for i in to_fact}
    decisions = migrate(
        boundary,
        split.change_entry_id,
        moves,
        reason="declared class per entry",
        writer_id="operator",
        batch=5,
    )
    assert [d.outcome for d in decisions] == ["commit"] * len(decisions) and len(decisions) > 1

    after = _entries(engine, b)
    for old, new_class in moves.items():
        new = after[f"{old}@{new_class}"]
        assert (after[old]["status"], after[old]["resident"]) == ("retired", False)
        assert (new["class"], new["status"], new["body"], new["key"]) == (
            new_class,
            "live",
            after[old]["body"],
            after[old]["key"],
        )
        assert new_class.capitalize() in new["labels"]
    assert after[kept]["status"] == "revalidated"
    assert not [i for i, r in after.items() if r["class"] == "fact" and r["status"] == "at_risk"]
    # Governed sets only: every status change is a transition from a ratified set, nothing gone.
    moved = engine.executor.read("audits/transitions", boundary_id=b)
    changed = {m["entry_id"] for m in moved}
    assert set(standing) <= changed
    sets = {line.set_id for line in index(boundary)}
    assert {m["set_id"] for m in moved} <= sets
    assert set(before) <= set(after)
    # The past is unchanged: before the split every standing fact was live.
    at_101 = as_of(boundary, 101).states()
    assert {at_101[i][0] for i in standing} == {"live"}
