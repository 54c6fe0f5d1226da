"""The operator's briefing: what happened since the last briefing, from the
record; a read, unless an operator records it as an audit event so the next one starts there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kg_context.db.connection import Target
from kg_context.engine import Engine
from kg_context.errors import InputValidationError
from tests.cli import cli
from tests.factories import entry, halting_on_retired, proposal


def _fact(key: str, **extra: Any) -> dict[str, Any]:
    return entry(cls="fact", key=key, body=f"fact {key}", attributes={"source": "test"}, **extra)


def test_the_briefing_reports_since_the_last_recorded_one_and_only_a_recording_moves_it(
    engine: Engine, boundary_id: str, neo4j_target: Target
) -> None:
    boundary = engine.boundary(boundary_id, constitution=halting_on_retired(boundary_id))
    goal, src, loose = (f"{boundary_id}-{n}" for n in ("g", "src", "loose"))
    boundary.commit(proposal(boundary_id, entry(cls="goal", key="ship", body="Ship", id=goal)))
    boundary.commit(proposal(boundary_id, _fact("src", id=src), targets=["a"]))
    derived = entry(
        key="db",
        body="use neo4j",
        id=f"{boundary_id}-d",
        derived_from=[{"entry_id": src, "essential": True}],
    )
    boundary.commit(proposal(boundary_id, derived, targets=["b"]))
    boundary.commit(proposal(boundary_id, _fact("loose", id=loose), targets=["c"]))
    czar = boundary.run_czar()  # retires the loose fact (and the unrequired source)
    assert czar.record["retired"] >= 1
    halted = boundary.commit(  # needs a retired entry: halts, left open
        proposal(
            boundary_id,
            entry(key="x", body="x", requires=[{"entry_id": loose}]),
            targets=["d"],
        )
    )
    assert (halted.outcome, halted.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    radius = boundary.invalidate(src, reason="the source was wrong", writer_id="operator")
    assert radius.decision is not None and radius.decision.outcome == "commit"

    read = boundary.brief()  # a read: nothing recorded, the next one starts at the same seq
    assert read.id is None and not engine.executor.read("briefing/last", boundary_id=boundary_id)
    first = boundary.record_brief()
    assert first.model_dump(exclude={"id", "at"}) == read.model_dump(exclude={"id", "at"})
    assert first.since_seq == 0 and first.seq == boundary.state().seq
    outcomes = first.sets_by_outcome
    assert outcomes["halted"] == 1 and outcomes["ratified"] == first.seq
    assert first.halts[0].status == "open"
    assert first.halts[0].reason_code == "NON_STANDING_DEPENDENCY"
    assert first.halts[0].halt_ids == [halted.halt_id]
    (run,) = first.czar_runs
    assert (run.trigger, run.retired, run.warning) == ("manual", czar.record["retired"], None)
    (invalidation,) = first.invalidations
    assert invalidation.moved.get("invalidated") == 1 and invalidation.blast_radius >= 2
    (point,) = first.retention_trend
    assert point.seq == run.seq and point.retention == run.resident_tokens / run.committed_tokens
    assert "false_retirement" in first.error_rates
    assert first.amendments == []  # one halt of its class: nothing recurs, nothing suggested
    text = first.render()
    assert "open NON_STANDING_DEPENDENCY x1" in text and "czar: 1 run(s)" in text

    recorded = engine.executor.read("briefing/last", boundary_id=boundary_id)
    assert [(r["id"], r["seq"]) for r in recorded] == [(first.id, first.seq)]

    second = boundary.brief()  # since the recorded briefing: nothing new but the open halt
    assert second.since_seq == first.seq and second.sets_by_outcome == {}
    assert second.czar_runs == [] and second.invalidations == []
    assert [h.halt_ids for h in second.halts] == [[halted.halt_id]]  # open ones always

    # an explicit since_seq: the invalidation set, and the set halted after the czar's set (no seq:
    # placed by when it closed)
    again = boundary.brief(since_seq=first.seq - 1)
    assert again.sets_by_outcome == {"ratified": 1, "halted": 1}
    assert boundary.brief(since_seq=first.seq).sets_by_outcome == {}
    with pytest.raises(InputValidationError, match="brief since must be >= 0"):
        boundary.brief(since_seq=-1)

    out = cli(neo4j_target, "brief", "-b", boundary_id, "--since", "0", "--json")
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["since_seq"] == 0 and printed["czar_retired"] == czar.record["retired"]
    assert printed["id"] is None  # the CLI reads unless told to record
    human = cli(neo4j_target, "brief", "-b", boundary_id)
    assert human.returncode == 0 and "# Briefing" in human.stdout
    assert f"seq {first.seq} -> {printed['seq']}" in human.stdout  # since the recorded one
    kept = cli(neo4j_target, "brief", "-b", boundary_id, "--since", "0", "--record", "--json")
    assert kept.returncode == 0, kept.stderr
    (last,) = engine.executor.read("briefing/last", boundary_id=boundary_id)
    assert last["id"] == json.loads(kept.stdout)["id"] != first.id
