"""Receipts by their families, field by field (against the real Neo4j).

Every receipt carries its ``family`` (``ReceiptKind.family``), so an analyst asks for
"all state_rejection_receipts" with one audit (``cypher/audits/receipts.cypher``); a halted set
is held by its halt receipt (family ``state_rejection_receipt``, decision ``halt``); adoption
receipts carry the verse they adopt into (read from the graph) and the material's verse; the
constitution a boundary is created with is recorded with a receipt, once.
"""

from __future__ import annotations

from typing import Any

from kg_context.engine import Engine
from kg_context.gate.pure.constitution import load_constitution
from kg_context.vocabulary import ReceiptFamily, ReceiptKind
from tests.factories import constitution_variant, entry, proposal


def _receipts(engine: Any, boundary_id: str, family: str | None = None) -> list[dict[str, Any]]:
    result = engine.run_audit(
        "receipts", boundary_id=boundary_id, params={"family": family} if family else None
    )
    return [dict(row) for row in result.rows]


def _one(rows: list[dict[str, Any]], kind: ReceiptKind) -> dict[str, Any]:
    found = [r for r in rows if r["kind"] == kind]
    assert len(found) == 1, (kind, rows)
    return dict(found[0]["fields"])


def _common(fields: dict[str, Any], kind: ReceiptKind, boundary_id: str, set_id: Any) -> None:
    """What every receipt carries: its kind and family, when, where, under which constitution."""
    default = load_constitution()
    assert fields["kind"] == kind and fields["family"] == kind.family
    assert fields["boundary_id"] == boundary_id and fields.get("set_id") == set_id
    assert fields["at"] and fields["id"].startswith(boundary_id)
    assert fields["constitution_version"] == default.version
    assert fields["constitution_sha256"] == default.sha256


def test_a_boundary_records_its_constitution_with_a_receipt_once(
    engine: Any, boundary_id: str
) -> None:
    default = load_constitution()
    engine.boundary(boundary_id, verse="internal")
    with Engine.connect(engine.target, check_schema=False) as other:  # no cache: the statement
        other.boundary(boundary_id)
    rows = _receipts(engine, boundary_id)
    assert [r["kind"] for r in rows] == [ReceiptKind.CONSTITUTION]
    fields = _one(rows, ReceiptKind.CONSTITUTION)
    _common(fields, ReceiptKind.CONSTITUTION, boundary_id, None)
    assert fields["family"] == ReceiptFamily.STATE_COMMIT
    assert fields["ratified_by"] == "kg-context" and fields["gateway_id"] == "kg-context"
    assert fields["decision"] == "commit" and fields["state_revision"] == 0
    assert fields["new_constitution_version"] == default.version
    assert fields["new_constitution_sha256"] == default.sha256
    assert fields["changed_ids"] == [f"constitution:{default.version}"]

    boundary = engine.boundary(boundary_id)
    text = default.text.replace(f'version = "{default.version}"', f'version = "{boundary_id}"')
    changed = boundary.propose_constitution(text, writer_id="operator", reason="tighter")
    assert changed.outcome == "commit"
    commit = _one(_receipts(engine, boundary_id), ReceiptKind.COMMIT)
    assert commit["family"] == ReceiptFamily.STATE_COMMIT
    assert commit["new_constitution_version"] == boundary_id
    assert commit["source_writer"] == ["operator"] and commit["state_revision"] == 1


def test_review_and_commit_receipts_say_what_was_admitted(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    decision = boundary.commit(proposal(boundary_id, entry(id="e-1"), writer_id="w-1"))
    assert decision.outcome == "commit"
    rows = [r for r in _receipts(engine, boundary_id) if r["set_id"] == decision.set_id]
    review = _one(rows, ReceiptKind.REVIEW)
    _common(review, ReceiptKind.REVIEW, boundary_id, decision.set_id)
    assert review["family"] == ReceiptFamily.GATEWAY_REVIEW
    assert review["decision"] == "commit" and review["source_writer"] == ["w-1"]
    assert review["reasons"] and review["gateway_id"]
    commit = _one(rows, ReceiptKind.COMMIT)
    _common(commit, ReceiptKind.COMMIT, boundary_id, decision.set_id)
    assert commit["id"] == decision.receipt_id
    assert commit["decision"] == "commit" and commit["state_revision"] == decision.seq == 1
    assert commit["allowed_effects"] == ["create:e-1"] and commit["refused_effects"] == []
    assert commit["changed_ids"] == ["e-1"] and len(commit["content_digest"]) == 64
    assert commit["mode"] == "governed" and commit["reasons"] == review["reasons"]


def test_rejection_halt_and_resolution_receipts(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    rejected = boundary.commit(proposal(boundary_id, entry(id="r-1"), targets=[]))  # NO_PLACEMENT
    assert rejected.outcome == "reject"
    held = boundary.commit(proposal(boundary_id, entry(id="g-1", verse="global", key="weather")))
    assert (held.outcome, held.reason_code) == ("halt", "VERSE_ADOPTION")
    held_again = boundary.commit(proposal(boundary_id, entry(id="g-2", verse="global", key="news")))
    assert held_again.halt_id is not None and held.halt_id is not None

    refused = _receipts(engine, boundary_id, family=ReceiptFamily.STATE_REJECTION)
    assert {r["kind"] for r in refused} == {ReceiptKind.REJECTION, ReceiptKind.HALT}
    rejection = _one([r for r in refused if r["set_id"] == rejected.set_id], ReceiptKind.REJECTION)
    _common(rejection, ReceiptKind.REJECTION, boundary_id, rejected.set_id)
    assert rejection["id"] == rejected.receipt_id and rejection["decision"] == "reject"
    assert rejection["reason_code"] == rejected.reason_code and rejection["detail"]
    assert rejection["allowed_effects"] == [] and rejection["changed_ids"] == []
    assert rejection["state_revision"] == 0 and "halt_id" not in rejection

    halt = _one([r for r in refused if r["set_id"] == held.set_id], ReceiptKind.HALT)
    _common(halt, ReceiptKind.HALT, boundary_id, held.set_id)
    assert halt["id"] == held.receipt_id and halt["halt_id"] == held.halt_id
    assert halt["decision"] == "halt" and halt["reason_code"] == "VERSE_ADOPTION"
    assert halt["refused_effects"] == ["create:g-1"] and halt["allowed_effects"] == []
    assert halt["changed_ids"] == [] and halt["suggested_amendment"]

    engine.halts.resolve(held.halt_id, "approve", operator_id="operator", reason="vetted")
    engine.halts.resolve(held_again.halt_id, "reject", operator_id="operator", reason="no")
    rows = _receipts(engine, boundary_id)
    approved = _one([r for r in rows if r["set_id"] == held.set_id], ReceiptKind.RESOLUTION)
    _common(approved, ReceiptKind.RESOLUTION, boundary_id, held.set_id)
    assert approved["family"] == ReceiptFamily.GATEWAY_REVIEW
    assert approved["id"] == f"{held.halt_id}/resolution" and approved["halt_id"] == held.halt_id
    assert approved["decision"] == "approve" and approved["operator_id"] == "operator"
    assert approved["reason"] == "vetted" and approved["reason_code"] == "VERSE_ADOPTION"
    assert approved["resolution_seconds"] >= 0 and approved["not_executed"] == []
    commit = _one([r for r in rows if r["set_id"] == held.set_id], ReceiptKind.COMMIT)
    assert commit["changed_ids"] == ["g-1"] and commit["family"] == ReceiptFamily.STATE_COMMIT

    refused_by_operator = [
        r for r in rows if r["set_id"] == held_again.set_id and r["kind"] == ReceiptKind.REJECTION
    ]
    assert len(refused_by_operator) == 1
    by_operator = dict(refused_by_operator[0]["fields"])
    assert by_operator["family"] == ReceiptFamily.STATE_REJECTION
    assert by_operator["halt_id"] == held_again.halt_id and by_operator["decision"] == "reject"
    assert by_operator["operator_id"] == "operator" and by_operator["reason"] == "no"
    families = {r["family"] for r in rows}
    assert families == {f.value for f in ReceiptFamily} - {ReceiptFamily.VERSE_ADOPTION}


def test_an_adoption_receipt_names_both_verses(engine: Any, boundary_id: str) -> None:
    guarded = constitution_variant(
        f"adopt-{boundary_id}",
        ('adoption_required_for = ["global"]', 'adoption_required_for = ["global", "local"]'),
    )
    boundary = engine.boundary(boundary_id, verse="internal", constitution=guarded)
    known = engine.adopt(
        boundary_id, operator_id="operator", reason="vetted", keys=["k"], material_verse="global"
    )
    unknown = engine.adopt(boundary_id, operator_id="operator", reason="r", keys=["k"])
    rows = _receipts(engine, boundary_id, family=ReceiptFamily.VERSE_ADOPTION)
    assert sorted(r["id"] for r in rows) == sorted([known, unknown])
    fields = dict(next(r for r in rows if r["id"] == known)["fields"])
    assert fields["kind"] == ReceiptKind.ADOPTION and fields["boundary_id"] == boundary_id
    assert fields["verse"] == "internal"  # the boundary's, from the graph
    assert fields["material_verse"] == "global"
    assert fields["keys"] == ["k"] and fields["uses"] == 1 and fields["operator_id"] == "operator"
    assert fields["reason"] == "vetted" and fields["constitution_version"] == guarded.version
    assert fields["constitution_sha256"] == guarded.sha256 and fields["at"]
    assert "material_verse" not in dict(next(r for r in rows if r["id"] == unknown)["fields"])

    # The receipt admits material of its verse only: local material under key k is not global.
    local = proposal(
        boundary_id, entry(id="l-1", verse="local", key="k"), adoption_receipt_id=known
    )
    wrong = boundary.commit(local)
    assert (wrong.outcome, wrong.reason_code) == ("halt", "ADOPTION_SCOPE")
    assert "global" in (wrong.detail or "")
    right = proposal(
        boundary_id, entry(id="g-1", verse="global", key="k"), adoption_receipt_id=known
    )
    assert boundary.commit(right).outcome == "commit"
