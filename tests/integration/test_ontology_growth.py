"""Ontologies that grow, on the real graph: a class the gate did
not know is declared by a ratified constitution change, by an operator the constitution names;
entries of it are then committed by the declared writer kinds only, count as roots if declared
so, carry the declared lease, and an ontology change re-classes entries into it, putting their
one-hop dependents at risk with them."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.errors import AuthorizationError, InputValidationError
from kg_context.gate.pure.constitution import default_constitution_text, load_constitution
from kg_context.record.ontology import change, migrate
from tests.factories import DEFAULT_VERSION, entry, proposal

_DECLARED = """
[classes.bug]
description = "a defect observed in the product"
root = true
writers = ["agent", "model"]

[classes.experiment]
lease_sets = 5
writers = ["agent"]
"""


BUG = f"{DEFAULT_VERSION}-bug"  # a version of the shipped default with the classes declared


def _grown(version: str) -> str:
    text = default_constitution_text().replace(
        f'version = "{load_constitution().version}"', f'version = "{version}"'
    )
    assert text != default_constitution_text()
    return text + _DECLARED


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def test_a_declared_class_is_ratified_written_rooted_and_migrated_into(
    engine: Any, boundary_id: str
) -> None:
    b = boundary_id
    boundary = engine.boundary(b)
    fact = {"cls": "fact", "attributes": {"source": "log"}}
    base = boundary.commit(
        proposal(
            b,
            entry(**fact, key="f1", body="login fails on empty password", id=f"{b}-f1"),
            entry(**fact, key="f2", body="the cache misses after restart", id=f"{b}-f2"),
            entry(
                key="d1",
                body="fix login",
                id=f"{b}-d1",
                derived_from=[{"entry_id": f"{b}-f1", "essential": True}],
            ),
            entry(
                cls="plan",
                key="p1",
                body="patch then release",
                id=f"{b}-p1",
                requires=[{"entry_id": f"{b}-f1", "policy": "hard"}],
            ),
            entry(
                key="d2",
                body="warm the cache",
                id=f"{b}-d2",
                derived_from=[{"entry_id": f"{b}-f2", "essential": False}],
            ),
            entry(
                key="d3",
                body="release on friday",
                id=f"{b}-d3",
                requires=[{"entry_id": f"{b}-d1", "policy": "hard"}],
            ),
        )
    )
    assert base.outcome == "commit"

    # Unknown to the gate: refused with its own reason code, nothing written.
    undeclared = boundary.commit(proposal(b, entry(cls="bug", key="b0", id=f"{b}-b0")))
    assert (undeclared.outcome, undeclared.reason_code) == ("reject", "UNDECLARED_CLASS")
    assert f"{b}-b0" not in _entries(engine, b)
    with pytest.raises(InputValidationError, match="unknown class 'bug'"):
        change(boundary, "new_class", "fact", ["bug"], reason="x", operator_id="operator")

    # A writer cannot declare a class for itself: only an operator the constitution names.
    with pytest.raises(AuthorizationError):
        boundary.propose_constitution(_grown(BUG), writer_id="writer-1", reason="mine")
    with pytest.raises(AuthorizationError):
        boundary.propose_constitution(
            _grown(BUG), writer_id="writer-1", reason="mine", writer_kind="agent"
        )
    shadow = boundary.propose_constitution(
        _grown(f"{DEFAULT_VERSION}-shadow")
        + '\n[classes.set]\nwriters = ["agent"]\n'
        + '\n[classes.interface]\nwriters = ["agent"]\n',
        writer_id="operator",
        reason="an agent may write interfaces",
    )
    assert (shadow.outcome, shadow.reason_code) == ("reject", "INVALID_CONSTITUTION")
    assert boundary.constitution().version == load_constitution().version

    ratified = boundary.propose_constitution(
        _grown(BUG), writer_id="operator", reason="bugs and experiments are typed state"
    )
    assert ratified.outcome == "commit"
    rules = boundary.constitution()
    assert rules.version == BUG and "bug" in rules.root_class_names()

    # The declared writer kinds may commit it; others are refused, by the gate.
    by_tool = boundary.commit(
        proposal(b, entry(cls="bug", key="b1", id=f"{b}-b1"), writer_id="t-1", writer_kind="tool")
    )
    assert (by_tool.outcome, by_tool.reason_code) == ("reject", "CLASS_NOT_ALLOWED")
    by_agent = boundary.commit(proposal(b, entry(cls="bug", key="b1", body="crash", id=f"{b}-b1")))
    assert by_agent.outcome == "commit"
    # Declared root: it holds itself in the window (a root path of its own).
    assert [n.id for n in boundary.why(f"{b}-b1").nodes] == [f"{b}-b1"]
    assert boundary.why(f"{b}-f2").nodes == ()  # a fact is no root: nothing holds it
    # Declared lease rule.
    no_lease = boundary.commit(proposal(b, entry(cls="experiment", key="x1", id=f"{b}-x1")))
    assert (no_lease.outcome, no_lease.reason_code) == ("reject", "MISSING_LEASE")
    leased = boundary.commit(
        proposal(b, entry(cls="experiment", key="x1", id=f"{b}-x1", expires_after=3))
    )
    assert leased.outcome == "commit"

    # Re-class facts into the declared class: the facts and their one-hop dependents at risk.
    grown = change(
        boundary, "new_class", "fact", ["bug"], reason="defects are bugs", operator_id="operator"
    )
    assert grown.decision.outcome == "commit"
    assert sorted(grown.at_risk) == [f"{b}-f1", f"{b}-f2"]
    # d1 derives essentially from f1, p1 requires it; d2 derives only supportingly from f2;
    # d3 requires d1 (two hops): they keep standing.
    assert sorted(grown.dependents) == [f"{b}-d1", f"{b}-p1"]
    mid = _entries(engine, b)
    assert {i: mid[f"{b}-{i}"]["status"] for i in ("f1", "f2", "d1", "p1", "d2", "d3")} == {
        "f1": "at_risk",
        "f2": "at_risk",
        "d1": "at_risk",
        "p1": "at_risk",
        "d2": "live",
        "d3": "live",
    }
    # A dependent leaves at_risk like any: a revalidation that names the change.
    kept = boundary.commit(
        proposal(
            b,
            revalidates=[grown.change_entry_id],
            transitions=[{"entry_id": f"{b}-d1", "to": "revalidated", "reason": "still fix it"}],
            entries=[],
        )
    )
    assert kept.outcome == "commit"

    # The migration (an operator's act: it retires the old entries out of the window) may write
    # the declared class it migrates into; an agent's migration is refused.
    by_agent = migrate(
        boundary,
        grown.change_entry_id,
        {f"{b}-f1": "bug"},
        reason="x",
        writer_id="writer-1",
        writer_kind="agent",
    )
    assert [d.outcome for d in by_agent] == ["reject"]
    moved = migrate(
        boundary, grown.change_entry_id, {f"{b}-f1": "bug"}, reason="a defect", writer_id="operator"
    )
    assert [d.outcome for d in moved] == ["commit"]
    after = _entries(engine, b)
    new = after[f"{b}-f1@bug"]
    assert (new["class"], new["status"], new["body"]) == (
        "bug",
        "live",
        "login fails on empty password",
    )
    assert "DeclaredBug" in new["labels"] and "Bug" not in new["labels"]
    assert after[f"{b}-f1"]["status"] == "retired"
    assert [n.id for n in boundary.why(f"{b}-f1@bug").nodes] == [f"{b}-f1@bug"]
