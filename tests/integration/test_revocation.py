"""Revocation is an operator's act with a receipt: a revoked writer, adoption receipt, foundational
mark or API credential is refused afterwards with a typed reason (against the real Neo4j)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from typer.testing import CliRunner

from kg_context.errors import OperatorActRefused, StateError
from kg_context.gate.io.revocation import RevocationSubject, credential_digest
from tests.factories import entry, proposal


def _receipt(engine: Any, boundary_id: str, receipt_id: str) -> dict[str, Any]:
    rows = engine.run_audit("receipts", boundary_id=boundary_id).rows
    found = [r for r in rows if r["id"] == receipt_id]
    assert len(found) == 1, rows
    return dict(found[0]["fields"])


def test_a_revoked_writer_is_refused_with_a_typed_reason(engine: Any, boundary_id: str) -> None:
    """Before: nothing could withdraw a registration; the writer's later sets committed."""
    boundary = engine.boundary(boundary_id)
    first = boundary.commit(proposal(boundary_id, entry(key="a"), writer_id="mallory"))
    assert first.outcome == "commit"
    done = boundary.revoke("writer", "mallory", operator_id="operator", reason="leaked key")
    assert (done.subject, done.subject_id, done.seq) == (RevocationSubject.WRITER, "mallory", 1)

    later = boundary.commit(proposal(boundary_id, entry(key="b"), writer_id="mallory"))
    assert (later.outcome, later.reason_code) == ("reject", "WRITER_REVOKED")
    assert done.id in (later.detail or "") and later.suggested_amendment
    rejection = _receipt(engine, boundary_id, later.receipt_id)
    assert rejection["reason_code"] == "WRITER_REVOKED"
    honest = boundary.commit(proposal(boundary_id, entry(key="c"), writer_id="alice"))
    assert honest.outcome == "commit"

    receipt = _receipt(engine, boundary_id, done.id)
    assert receipt["kind"] == "revocation" and receipt["family"] == "state_commit_receipt"
    assert (receipt["operator_id"], receipt["reason"], receipt["subject_id"]) == (
        "operator",
        "leaked key",
        "mallory",
    )
    assert [r.id for r in boundary.revocations()] == [done.id]
    listed = engine.run_audit("revocations", boundary_id=boundary_id).rows
    assert [(r["subject_id"], r["revokes"]) for r in listed] == [("mallory", ["Writer"])]
    assert engine.run_audit("revoked_writer_sets", boundary_id=boundary_id).rows == []
    briefing = boundary.brief(since_seq=0)
    assert [(r["subject"], r["subject_id"]) for r in briefing.revocations] == [
        ("writer", "mallory")
    ]
    assert "writer mallory by operator: leaked key" in briefing.render()
    with pytest.raises(StateError, match="revoked already"):
        boundary.revoke("writer", "mallory", operator_id="operator", reason="again")


def test_only_an_operator_revokes_and_never_a_named_id(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="a"), writer_id="victim"))
    with pytest.raises(OperatorActRefused) as refused:
        boundary.revoke("writer", "victim", operator_id="victim-rival", reason="grudge")
    assert refused.value.code == "NOT_OPERATOR" and refused.value.fix
    with pytest.raises(OperatorActRefused) as named:
        boundary.revoke("writer", "czar", operator_id="operator", reason="no czar")
    assert named.value.code == "NOT_AUTHORIZED" and "constitution" in named.value.fix
    assert boundary.revocations() == []
    assert boundary.commit(proposal(boundary_id, entry(key="b"), writer_id="victim")).outcome == (
        "commit"
    )


def test_a_revoked_adoption_receipt_is_refused(engine: Any, boundary_id: str) -> None:
    """Before: an issued receipt stayed good for every remaining use."""
    boundary = engine.boundary(boundary_id)
    receipt = engine.adopt(boundary_id, operator_id="operator", reason="r", keys=["k"], uses=3)

    def cite(n: int) -> Any:
        return boundary.commit(
            proposal(
                boundary_id,
                entry(verse="global", key="k", body=f"b{n}"),
                adoption_receipt_id=receipt,
            )
        )

    assert cite(1).outcome == "commit"
    with pytest.raises(OperatorActRefused):
        boundary.revoke("adoption", receipt, operator_id="writer-1", reason="r")
    done = boundary.revoke("adoption", receipt, operator_id="operator", reason="vetting withdrawn")
    refused = cite(2)
    assert (refused.outcome, refused.reason_code) == ("reject", "ADOPTION_REVOKED")
    assert done.id in (refused.detail or "")
    assert engine.run_audit("revoked_adoption_uses", boundary_id=boundary_id).rows == []
    with pytest.raises(StateError, match="no adoption receipt"):
        boundary.revoke(
            "adoption", f"{boundary_id}/adoption/none", operator_id="operator", reason="r"
        )


def test_a_revoked_foundational_mark_no_longer_holds(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    base = f"{boundary_id}/base"
    boundary.commit(proposal(boundary_id, entry(key="base", id=base)))
    marked = boundary.commit(
        {
            "id": f"{boundary_id}/mark",
            "boundary_id": boundary_id,
            "writer_id": "operator",
            "writer_kind": "operator",
            "targets": ["t"],
            "foundational": [base],
        }
    )
    assert marked.outcome == "commit", marked
    listed = engine.run_audit("foundational_entries", boundary_id=boundary_id).rows
    assert [r["entry_id"] for r in listed] == [base]
    done = boundary.revoke("foundational", base, operator_id="operator", reason="not load-bearing")
    assert engine.run_audit("foundational_entries", boundary_id=boundary_id).rows == []
    listed = engine.run_audit("revocations", boundary_id=boundary_id).rows
    assert [(r["subject_id"], r["revokes"]) for r in listed] == [(base, ["Entry"])]
    with pytest.raises(StateError, match="not foundational"):
        boundary.revoke("foundational", base, operator_id="operator", reason="again")
    assert [r.id for r in boundary.revocations("foundational")] == [done.id]


def test_the_revoked_writer_audit_finds_a_set_written_around_the_gate(
    engine: Any, driver: Any, boundary_id: str
) -> None:
    """The invariant can fail: a ratified set BY the revoked writer at a later seq, written with
    raw Cypher (as an intruder with the database password could), is found."""
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="a"), writer_id="mallory"))
    done = boundary.revoke("writer", "mallory", operator_id="operator", reason="r")
    with driver.session(database=engine.target.database) as session:
        session.run(
            "MATCH (w:Writer {boundary_id: $b, id: 'mallory'}) "
            "CREATE (:Set {boundary_id: $b, id: $b + '/forged', seq: 99, status: 'ratified'})"
            "-[:BY]->(w)",
            b=boundary_id,
        ).consume()
    rows = engine.run_audit("revoked_writer_sets", boundary_id=boundary_id).rows
    assert [(r["set_id"], r["revocation_id"]) for r in rows] == [(f"{boundary_id}/forged", done.id)]


def test_revoke_from_the_cli(engine: Any, boundary_id: str) -> None:
    from kg_context.cli.app import app
    from kg_context.cli.common import exit_code_for

    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="a"), writer_id="bot-9"))
    runner = CliRunner()
    result = runner.invoke(
        app, ["revoke", "writer", boundary_id, "bot-9", "--reason", "retired bot", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["subject_id"] == "bot-9"
    refused = runner.invoke(
        app,
        ["revoke", "writer", boundary_id, "bot-9", "--reason", "r", "--operator", "intruder"],
    )
    assert isinstance(refused.exception, OperatorActRefused)
    assert exit_code_for(refused.exception) == 8
    listed = runner.invoke(app, ["revoke", "list", boundary_id, "--json"])
    assert [r["subject_id"] for r in json.loads(listed.output)] == ["bot-9"]
    later = boundary.commit(proposal(boundary_id, entry(key="b"), writer_id="bot-9"))
    assert later.reason_code == "WRITER_REVOKED"


def test_a_revoked_credential_is_refused_over_http(engine: Any) -> None:
    """Before: a leaked token could only be withdrawn by editing the server's token file."""
    from tests.integration.api_server import running

    fenced = f"api-fenced-{uuid.uuid4().hex[:10]}"
    with running(engine, fenced) as server:
        b = f"api-rev-{uuid.uuid4().hex[:12]}"
        assert server.call("PUT", f"/boundaries/{b}", "operator", json={}).status_code == 200
        assert server.call("GET", f"/boundaries/{b}", "critic").status_code == 200
        body = {
            "subject": "credential",
            "subject_id": credential_digest(server.tokens["critic"]),
            "reason": "leaked",
        }
        rogue = server.call("POST", f"/boundaries/{b}/revocations", "rogue_operator", json=body)
        assert rogue.status_code == 403, rogue.text
        done = server.call("POST", f"/boundaries/{b}/revocations", "operator", json=body)
        assert done.status_code == 200, done.text
        assert done.json()["operator_id"] == "operator"
        refused = server.call("GET", f"/boundaries/{b}", "critic")
        assert refused.status_code == 403, refused.text
        assert refused.json()["type"] == "urn:kg-context:problem:credential-revoked"
        assert server.call("GET", f"/boundaries/{b}", "writer").status_code == 200
        listed = server.call("GET", f"/boundaries/{b}/revocations", "reader").json()
        assert [r["subject"] for r in listed] == ["credential"]
