"""At risk is a halt: an invalidation walk, or a constitution change that drops a root class,
opens revalidation-queue items the operator resolves, with their own figures (against the real
Neo4j)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from kg_context.errors import OperatorActRefused, StateError
from tests.factories import DEFAULT_VERSION, constitution_variant, entry, proposal


def _derived(boundary_id: str, name: str, base: str) -> dict[str, Any]:
    return entry(
        key=name,
        body=f"{name} follows from the base",
        id=f"{boundary_id}/{name}",
        derived_from=[{"entry_id": base, "essential": True}],
    )


def _status(engine: Any, boundary_id: str, entry_id: str) -> str:
    rows = engine.executor.read("residency/entry", boundary_id=boundary_id, entry_id=entry_id)
    return str(rows[0]["status"])


def test_an_invalidation_walk_opens_an_item_per_at_risk_entry_the_operator_resolves(
    engine: Any, boundary_id: str
) -> None:
    """Before: the walk left entries at_risk with no item, no resolution and no figure."""
    boundary = engine.boundary(boundary_id)
    base = f"{boundary_id}/base"
    boundary.commit(proposal(boundary_id, entry(key="base", id=base)))
    boundary.commit(
        proposal(
            boundary_id,
            *(_derived(boundary_id, n, base) for n in ("a", "b", "c")),
        )
    )
    blast = boundary.invalidate(base, reason="the base was wrong", writer_id="operator")
    assert sorted(blast.moved_at_risk) == [f"{boundary_id}/{n}" for n in ("a", "b", "c")]

    items = engine.halts.at_risk(boundary_id)
    assert sorted(i.entry_id for i in items) == sorted(blast.moved_at_risk)
    assert all(i.open and i.case == "FAILED_ANCESTOR" for i in items)
    assert all(
        i.failed_ancestors == (base,) and i.opened_by == blast.decision.set_id for i in items
    )
    figures = engine.halts.figures(boundary_id)
    assert (figures.opened, figures.resolved, figures.open) == (3, 0, 3)
    assert boundary.brief(since_seq=0).revalidation["open"] == 3

    a, b, c = (f"{boundary_id}/{n}" for n in ("a", "b", "c"))
    with pytest.raises(OperatorActRefused) as refused:
        engine.halts.resolve_at_risk(
            boundary_id, a, "revalidate", operator_id="writer-1", reason="x"
        )
    assert refused.value.code == "NOT_OPERATOR"
    assert engine.halts.figures(boundary_id).resolved == 0

    kept = engine.halts.resolve_at_risk(
        boundary_id, a, "revalidate", operator_id="operator", reason="re-checked, holds"
    )
    assert kept.decision.outcome == "commit", kept.decision
    gone = engine.halts.resolve_at_risk(
        boundary_id, b, "retire", operator_id="operator", reason="not needed"
    )
    assert gone.decision.outcome == "commit", gone.decision
    failed = engine.halts.resolve_at_risk(
        boundary_id, c, "confirm", operator_id="operator", reason="it failed too"
    )
    assert failed.decision.outcome == "commit", failed.decision
    assert [_status(engine, boundary_id, i) for i in (a, b, c)] == [
        "revalidated",
        "retired",
        "invalidated",
    ]
    with pytest.raises(StateError, match="no open at-risk item"):
        engine.halts.resolve_at_risk(boundary_id, a, "retire", operator_id="operator", reason="x")

    assert engine.halts.at_risk(boundary_id) == []
    resolved = {i.entry_id: i for i in engine.halts.at_risk(boundary_id, None)}
    assert {k: v.resolution for k, v in resolved.items()} == {
        a: "revalidated",
        b: "retired",
        c: "invalidated",
    }
    assert all(
        v.resolution_seconds is not None and v.resolution_seconds >= 0 for v in resolved.values()
    )
    figures = engine.halts.figures(boundary_id)
    assert (figures.opened, figures.resolved, figures.open) == (3, 3, 0)
    assert figures.mean_resolution_seconds is not None

    stats = boundary.stats()
    assert stats.revalidation == figures
    assert stats.halts == {} and stats.halt_rate == 0.0  # the set halt rate counts sets only
    assert stats.as_dict()["revalidation"]["open"] == 0


def test_a_constitution_change_that_drops_a_root_class_puts_its_dependents_at_risk(
    engine: Any, boundary_id: str
) -> None:
    """Before: dropping `goal` from the roots was ratified and every goal, and what required it,
    stayed live as if nothing had changed."""
    boundary = engine.boundary(boundary_id)
    goal = f"{boundary_id}/goal"
    plan = f"{boundary_id}/plan"
    boundary.commit(
        proposal(
            boundary_id,
            entry(cls="goal", key="goal", id=goal),
            entry(cls="plan", key="plan", id=plan, requires=[{"entry_id": goal, "policy": "hard"}]),
        )
    )
    no_goal = constitution_variant(
        f"{DEFAULT_VERSION}-no-goal-root",
        (
            'classes = ["goal", "constraint", "decision", "obligation", "plan", "pin"]',
            'classes = ["constraint", "decision", "obligation", "plan", "pin"]',
        ),
    )
    changed = boundary.propose_constitution(no_goal.text, writer_id="operator", reason="goals go")
    assert changed.outcome == "commit", changed
    assert [_status(engine, boundary_id, i) for i in (goal, plan)] == ["at_risk", "at_risk"]
    items = {i.entry_id: i for i in engine.halts.at_risk(boundary_id)}
    assert set(items) == {goal, plan}
    assert all(i.case == "ONTOLOGY" for i in items.values())
    kept = engine.halts.resolve_at_risk(
        boundary_id, plan, "revalidate", operator_id="operator", reason="the plan stands alone"
    )
    assert kept.decision.outcome == "commit", kept.decision
    assert engine.halts.figures(boundary_id).resolved == 1


def test_an_amendment_that_drops_a_root_class_puts_its_dependents_at_risk_too(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    goal = f"{boundary_id}/goal"
    boundary.commit(proposal(boundary_id, entry(cls="goal", key="goal", id=goal)))
    held = boundary.commit(proposal(boundary_id, entry(verse="global", key="weather")))
    assert (held.outcome, held.reason_code) == ("halt", "VERSE_ADOPTION")
    amended = constitution_variant(
        f"{DEFAULT_VERSION}-no-goal-no-adoption",
        (
            'classes = ["goal", "constraint", "decision", "obligation", "plan", "pin"]',
            'classes = ["constraint", "decision", "obligation", "plan", "pin"]',
        ),
        ('adoption_required_for = ["global"]', "adoption_required_for = []"),
    )
    done = engine.halts.resolve(
        held.halt_id, "amend", operator_id="operator", reason="r", amendment=amended.text
    )
    assert done.decision is not None and done.decision.outcome == "commit"
    assert _status(engine, boundary_id, goal) == "at_risk"
    assert [i.entry_id for i in engine.halts.at_risk(boundary_id)] == [goal]


def test_the_queue_from_the_cli(engine: Any, boundary_id: str) -> None:
    from kg_context.cli.app import app

    boundary = engine.boundary(boundary_id)
    base = f"{boundary_id}/base"
    boundary.commit(proposal(boundary_id, entry(key="base", id=base)))
    boundary.commit(proposal(boundary_id, _derived(boundary_id, "a", base)))
    boundary.challenge(base, reason="doubtful", writer_id="operator")
    runner = CliRunner()
    listed = runner.invoke(app, ["halts", "at-risk", "-b", boundary_id, "--json"])
    assert listed.exit_code == 0, listed.output
    data = json.loads(listed.output)
    assert [i["entry_id"] for i in data["items"]] == [f"{boundary_id}/a"]
    assert data["figures"]["open"] == 1
    done = runner.invoke(
        app,
        ["halts", "revalidate", f"{boundary_id}/a", "-b", boundary_id, "--retire", "--reason", "x"],
    )
    assert done.exit_code == 0, done.output
    assert engine.halts.figures(boundary_id).resolved == 1
