"""Halt classes become predicates, on the real graph: a halt
class the operator resolved the same way, recurring, yields a parameterized amendment; ratified
as a governed constitution change (an operator's act only), the same kind of set then commits,
decided by the amended predicate; a class resolved inconsistently yields nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kg_context.errors import AuthorizationError
from kg_context.record.amendments import adopt_suggestion, suggest_amendments
from kg_context.vocabulary import ReasonCode, ThresholdParameter
from tests.cli import cli
from tests.factories import entry, proposal


def _fanout(boundary: Any, b: str, edges: int, n: int) -> Any:
    """A set of ``edges`` entries, each declaring one REQUIRES on the base entry (fan-out
    ``edges``), on a target of its own (no fragment group)."""
    return boundary.commit(
        proposal(
            b,
            *[entry(key=f"s{n}-{i}", requires=[{"entry_id": f"{b}-base"}]) for i in range(edges)],
            targets=[f"t{n}"],
        )
    )


def _halted(engine: Any, b: str, resolutions: list[tuple[int, str]]) -> tuple[Any, list[str]]:
    boundary = engine.boundary(b)
    assert boundary.commit(proposal(b, entry(key="base", id=f"{b}-base"))).outcome == "commit"
    ids = []
    for n, (edges, resolution) in enumerate(resolutions):
        decision = _fanout(boundary, b, edges, n)
        assert decision.reason_code == "DENSITY", decision
        engine.halts.resolve(decision.halt_id, resolution, operator_id="operator", reason="r")
        ids.append(decision.halt_id)
    return boundary, ids


def test_recurring_density_halts_become_a_ratified_threshold(
    engine: Any, neo4j_target: Any, boundary_id: str
) -> None:
    b = boundary_id
    boundary, ids = _halted(
        engine, b, [(65, "approve"), (70, "approve"), (66, "approve"), (90, "reject")]
    )
    before = boundary.state().constitution_version

    (suggestion,) = suggest_amendments(engine.executor, boundary)
    assert suggestion.id == "DENSITY:density.max_set_fanout=70"
    assert (suggestion.reason_code, suggestion.parameter) == (
        ReasonCode.DENSITY,
        ThresholdParameter.MAX_SET_FANOUT,
    )
    assert (suggestion.current, suggestion.proposed) == (64.0, 70.0)
    assert sorted(suggestion.halt_ids) == sorted(ids) and suggestion.count == 4
    assert (suggestion.approved, suggestion.rejected) == (3, 1)
    assert suggestion.fragment == "[density]\nmax_set_fanout = 70\n"
    assert "max_set_fanout = 70" in suggestion.constitution_text
    # Only halts opened since a seq count: the last two alone do not recur.
    assert suggest_amendments(engine.executor, boundary, since_seq=3) == []
    # The operator's briefing proposes it (the briefing reports what the amendments suggest).
    briefed = boundary.brief()
    assert [(a["id"], a["count"]) for a in briefed.amendments] == [(suggestion.id, 4)]
    assert f"adopt-suggestion {suggestion.id} -b {b}" in briefed.render()

    # A writer the constitution does not name as operator is refused; nothing changes.
    with pytest.raises(AuthorizationError):
        adopt_suggestion(boundary, suggestion.id, writer_id="writer-1")
    assert boundary.state().constitution_version == before

    # The operator reads the suggestions and adopts one from the CLI.
    shown = cli(neo4j_target, "constitution", "suggest", "-b", b, "--json")
    assert shown.returncode == 0, shown.stderr
    assert [s["id"] for s in json.loads(shown.stdout)] == [suggestion.id]
    adopted = cli(neo4j_target, "constitution", "adopt-suggestion", suggestion.id, "-b", b)
    assert adopted.returncode == 0, adopted.stderr
    assert adopted.stdout.startswith("commit: set ")
    assert boundary.state().constitution_version == suggestion.constitution_version
    assert boundary.constitution().density.max_set_fanout == 70
    assert suggest_amendments(engine.executor, boundary) == []  # decided by the constitution now

    # The same kind of set now commits under the new predicate, with its receipt; beyond the
    # approved range it still halts.
    again = _fanout(boundary, b, 68, 10)
    assert again.outcome == "commit" and again.receipt_id
    assert again.constitution_version == suggestion.constitution_version
    receipts = {
        r["id"]: r for r in engine.executor.read("audits/receipts", boundary_id=b, family=None)
    }
    assert receipts[again.receipt_id]["kind"] == "commit"
    assert _fanout(boundary, b, 71, 11).reason_code == "DENSITY"


def test_a_class_resolved_inconsistently_suggests_nothing(engine: Any, boundary_id: str) -> None:
    # 68 was rejected while 70 and 72 were approved: no threshold decides them all as resolved.
    boundary, _ = _halted(
        engine, boundary_id, [(65, "approve"), (68, "reject"), (70, "approve"), (72, "approve")]
    )
    assert suggest_amendments(engine.executor, boundary) == []
