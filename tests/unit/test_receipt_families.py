"""Every receipt kind belongs to one of the receipt families, defined once
(``ReceiptKind.family``), and the receipts audit reads old receipts (written before ``family``
was recorded) with the same mapping."""

from __future__ import annotations

import re

from kg_context.db.catalog import default_catalog
from kg_context.gate.pure.batch import constitution_receipt
from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.rows import receipt_row
from kg_context.vocabulary import ReceiptFamily, ReceiptKind


def test_every_kind_has_a_family_and_every_family_a_kind() -> None:
    families = {kind: kind.family for kind in ReceiptKind}
    assert set(families.values()) == set(ReceiptFamily)
    assert families[ReceiptKind.HALT] is ReceiptFamily.STATE_REJECTION  # held: refused for now
    assert families[ReceiptKind.CONSTITUTION] is ReceiptFamily.STATE_COMMIT


def test_the_audit_maps_old_receipts_as_the_vocabulary_does() -> None:
    text = default_catalog()["audits/receipts"].text
    pairs = dict(re.findall(r"WHEN '(\w+)' THEN '(\w+)'", text))
    assert pairs == {kind.value: kind.family.value for kind in ReceiptKind}


def test_the_builders_write_the_family_of_the_kind() -> None:
    for kind in ReceiptKind:
        row = receipt_row(
            "b/s/x", kind, at="t", boundary_id="b", set_id="s", constitution_version="v"
        )
        assert row["props"]["family"] == kind.family
    default = load_constitution()
    founding = constitution_receipt("b/x", default, ratified_by="kg-context", at="t")
    assert founding["id"] == f"b%2Fx/constitution/{default.version}"
    assert (founding["kind"], founding["family"]) == ("constitution", "state_commit_receipt")
    assert founding["set_id"] is None and founding["new_constitution_sha256"] == default.sha256
