"""The typed rows the gate hands to its write statements match what each Cypher file reads.

The catalog already checks every call's top-level parameters against the file's ``$params``;
this checks one level down: the keys a statement reads from ``row`` (``row.from``, ``row.props``)
and from the rows nested in it (``w.id``, ``decided.status``, ``entry.labels``) are exactly the
keys of the ``TypedDict`` the gate builds for it. A key the gate stops writing, or a file that
starts reading a new one, fails here instead of writing ``null`` into the record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kg_context.db.catalog import _code_only, default_catalog
from kg_context.gate.pure import rows
from tests.statement_text import statement_code

# statement -> {the variable the file binds: the TypedDict of what it reads from it}
STATEMENTS: dict[str, dict[str, Any]] = {
    "gate/write_plan": {
        "set_row": rows.SetWriteRow,
        "w": rows.WriterRow,
        "decided": rows.ProposalOutcomeRow,
        "entry": rows.EntryRow,
        "derived": rows.DerivedFromRow,
        "summary": rows.SummarizesRow,
        "requirement": rows.RequiresRow,
        "foreign_edge": rows.ForeignEdgeRow,
        "use": rows.AdoptionUseRow,
        "renewal": rows.RenewalRow,
        "mark": rows.FoundationalRow,
        "superseded": rows.SupersedesRow,
        "transition": rows.TransitionRow,
    },
    "gate/write_sealed": {"row": rows.ReceiptRow, "halt": rows.HaltRow},
    "gate/write_receipts": {"row": rows.ReceiptRow},
}
# Keys a statement's rows carry for the gate's own bookkeeping, never read by the statement:
# none today (every key the gate writes is read).
UNREAD: dict[str, frozenset[str]] = {}
# What the sealed part of a plan carries (``$sealed``): receipts, halts and the ledger's head.
SEALED = {"receipts", "halts", "ledger_pos", "ledger_head", "ledger_since_seq"}


def _keys_read(text: str, variable: str) -> set[str]:
    code = statement_code(text)
    return set(re.findall(rf"\b{variable}\.([A-Za-z_][A-Za-z0-9_]*)", code))


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_rows_carry_exactly_what_the_statement_reads(name: str) -> None:
    text = default_catalog()[name].text
    for variable, row_type in STATEMENTS[name].items():
        declared = set(row_type.__annotations__)
        read = _keys_read(text, variable)
        assert read, f"{name} reads nothing from {variable}: the table above is stale"
        assert read == declared - UNREAD.get(name, frozenset()), (
            f"{name}: {variable} is read for {sorted(read)}, the gate's {row_type.__name__} "
            f"declares {sorted(declared)}"
        )


def test_write_plan_takes_the_boundary_row_and_every_part_of_the_plan() -> None:
    query = default_catalog()["gate/write_plan"]
    parts = {"sets", "derived", "summarizes", "requires", "foreign_edges", "adoption_uses"}
    parts |= {"renewals", "foundational", "supersedes", "transitions"}
    # the lists in one map ($plan), the sealed part in another ($sealed): planned once
    assert query.fields["plan"] == parts | {"one_use_pending"}
    assert query.fields["sealed"] == SEALED
    assert query.params == set(rows.BoundaryRow.__annotations__) - {"one_use_pending"} | {
        "plan",
        "sealed",
        "boundary_id",
        "expected_seq",
        "standing",
        "default_lease",
    }


def test_write_plan_writes_receipts_and_halts_exactly_as_write_sealed_does() -> None:
    # A plan of a few sets is written whole by write_plan, a larger one by write_plan and then
    # write_sealed: the receipts and halts must be the same writes either way.
    catalog = default_catalog()
    sealed = _code_only(catalog["gate/write_sealed"].text)
    parts = sealed[sealed.index("CALL () {") : sealed.index("MATCH (b:Boundary")].strip()
    assert parts in _code_only(catalog["gate/write_plan"].text)


def test_write_sealed_takes_the_sealed_receipts_the_halts_and_the_ledger_head() -> None:
    query = default_catalog()["gate/write_sealed"]
    assert query.params == {"boundary_id", "sealed"}
    assert query.fields == {"sealed": SEALED}  # the ledger's head (gate.pure.ledger)


def test_every_gate_write_statement_is_covered() -> None:
    writes = {name for name in default_catalog() if name.startswith("gate/write_")}
    covered = set(STATEMENTS) | {"gate/write_adoption"}  # adoption: top-level params only
    assert writes == covered
