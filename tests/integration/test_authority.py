"""Authority is bound, never self-declared (against the real Neo4j).

A writer's kind is fixed when it is first registered in a boundary; only the czar and operator
ids the boundary's constitution names may act as czar or operator; operator acts (constitution
changes, halt resolutions, adoptions) check authority before anything is written; and the gate
re-checks each pre-authorized czar case against the graph, never trusting the evidence text.
"""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.errors import AuthorizationError
from kg_context.gate.pure.constitution import load_constitution
from tests.factories import entry, proposal

DEFAULT = load_constitution()


def _counts(engine: Any, boundary_id: str) -> dict[str, Any]:
    counts: dict[str, Any] = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[
        0
    ]
    return counts


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _retire(boundary_id: str, entry_id: str, writer_id: str, case: str, evidence: str) -> Any:
    return {
        "id": f"{boundary_id}/retire/{writer_id}/{entry_id[-8:]}/{case}",
        "boundary_id": boundary_id,
        "writer_id": writer_id,
        "writer_kind": "czar",
        "set_id": f"{boundary_id}/retire/{writer_id}/{entry_id[-8:]}/{case}",
        "kind": "compaction",
        "transitions": [
            {
                "entry_id": entry_id,
                "to": "retired",
                "resident": False,
                "reason": "compaction",
                "case": case,
                "justification": [evidence],
            }
        ],
    }


def _decision(boundary: Any, boundary_id: str, writer_id: str = "planner") -> str:
    """A live decision: a root, so reachable."""
    decision_id = f"{boundary_id}/decision"
    done = boundary.commit(
        proposal(boundary_id, entry(id=decision_id, key="db", body="Neo4j"), writer_id=writer_id)
    )
    assert done.outcome == "commit", done
    return decision_id


def test_a_czar_kind_claimed_by_any_writer_id_is_not_authorized(
    engine: Any, boundary_id: str
) -> None:
    """A writer id that claims writer_kind czar cannot retire a reachable decision, whatever
    evidence (here 'UNREACHABLE: lie') it gives."""
    boundary = engine.boundary(boundary_id)
    decision_id = _decision(boundary, boundary_id)
    forged = boundary.commit(_retire(boundary_id, decision_id, "mallory", "UNREACHABLE", "lie"))
    assert (forged.outcome, forged.reason_code) == ("reject", "NOT_AUTHORIZED")
    assert _entries(engine, boundary_id)[decision_id]["status"] == "live"


def test_the_named_czar_cannot_retire_what_the_graph_shows_reachable(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    decision_id = _decision(boundary, boundary_id)
    lie = boundary.commit(_retire(boundary_id, decision_id, "czar", "UNREACHABLE", "lie"))
    assert (lie.outcome, lie.reason_code) == ("reject", "CASE_NOT_SHOWN")
    assert decision_id in (lie.detail or "")
    fact_id = f"{boundary_id}/fact"
    boundary.commit(
        proposal(
            boundary_id,
            entry(cls="fact", key="f", id=fact_id, attributes={"source": "t"}),
            writer_id="planner",
        )
    )
    true_case = boundary.commit(
        _retire(boundary_id, fact_id, "czar", "UNREACHABLE", "no root path")
    )
    assert true_case.outcome == "commit", true_case
    assert _entries(engine, boundary_id)[fact_id]["status"] == "retired"


def test_a_second_id_cannot_retire_its_own_entry_and_a_registered_kind_is_fixed(
    engine: Any, boundary_id: str
) -> None:
    """The same agent under a second id cannot retire its own entry."""
    boundary = engine.boundary(boundary_id)
    decision_id = _decision(boundary, boundary_id, writer_id="agent-7")
    shadow = boundary.commit(_retire(boundary_id, decision_id, "agent-7b", "UNREACHABLE", "lie"))
    assert (shadow.outcome, shadow.reason_code) == ("reject", "NOT_AUTHORIZED")
    other_kind = boundary.commit(
        proposal(boundary_id, entry(cls="scratch"), writer_id="agent-7", writer_kind="tool")
    )
    assert (other_kind.outcome, other_kind.reason_code) == ("reject", "WRITER_KIND")
    as_agent = boundary.commit(proposal(boundary_id, entry(cls="scratch"), writer_id="agent-7"))
    assert as_agent.outcome == "commit"
    named = boundary.commit(
        proposal(boundary_id, entry(cls="scratch"), writer_id="operator", writer_kind="agent")
    )
    assert (named.outcome, named.reason_code) == ("reject", "WRITER_KIND")
    writers = engine.executor.read("audits/writers", boundary_id=boundary_id)
    assert [(w["id"], w["kind"], w["registered_seq"]) for w in writers] == [("agent-7", "agent", 1)]


def test_any_writer_id_ratifying_a_constitution_is_refused_before_anything_is_written(
    engine: Any, boundary_id: str
) -> None:
    """A writer id cannot ratify a new constitution as an 'operator' by saying so."""
    boundary = engine.boundary(boundary_id)
    text = DEFAULT.text.replace(
        f'version = "{DEFAULT.version}"', f'version = "auth-{boundary_id[-12:]}"'
    )
    before = _counts(engine, boundary_id)
    with pytest.raises(AuthorizationError, match="mallory"):
        boundary.propose_constitution(text, writer_id="mallory", reason="I say so")
    assert _counts(engine, boundary_id) == before
    assert boundary.state().constitution_version == DEFAULT.version
    ok = boundary.propose_constitution(text, writer_id="operator", reason="named operator")
    assert ok.outcome == "commit"


def test_halt_resolution_and_adoption_need_a_named_operator(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    assert halted.reason_code == "VERSE_ADOPTION"
    before = _counts(engine, boundary_id)
    with pytest.raises(AuthorizationError, match="'ops-ann' is not an operator"):
        engine.halts.resolve(halted.halt_id, "approve", operator_id="ops-ann", reason="me")
    with pytest.raises(AuthorizationError, match="'ops-ann' is not an operator"):
        engine.adopt(boundary_id, operator_id="ops-ann", reason="me", keys=["g"])
    assert _counts(engine, boundary_id) == before
    assert engine.halts.show(halted.halt_id).halt.status == "open"
    resolved = engine.halts.resolve(halted.halt_id, "approve", operator_id="operator", reason="ok")
    assert resolved.decision is not None and resolved.decision.outcome == "commit"


def test_the_cli_records_the_operator_named_operator_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kg_context.cli.common import operator_id

    monkeypatch.delenv("KG_CONTEXT_OPERATOR", raising=False)
    monkeypatch.setenv("USER", "someone")
    assert operator_id() == "operator"
    monkeypatch.setenv("KG_CONTEXT_OPERATOR", "ops-ann")
    assert operator_id() == "ops-ann"
