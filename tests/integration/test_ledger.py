"""The tamper-evident ledger on the real Neo4j: a boundary built through the gate (supersessions,
a czar compaction, halts approved and rejected, an invalidation) verifies clean; every way an
intruder with the database password can write around the gate (create an entry, edit a body,
flip a status, delete a receipt, re-link an edge) is found, at the exact set. The raw tamper
statements live in ``ledger_fixtures/tamper/``; each test tampers only its own boundary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.ledger_verify import LedgerProblem, LedgerVerification
from kg_context.gate.io.store import GateStore
from kg_context.residency.czar import run_czar
from kg_context.text.tokens import get_token_counter
from tests.cli import cli
from tests.factories import entry, proposal

FIXTURES = Path(__file__).parent / "ledger_fixtures"
SOURCE = {"source": "test"}


@pytest.fixture(scope="module")
def intruder(neo4j_target: Target) -> Iterator[Engine]:
    """Raw statements with the database password, around the gate."""
    with Engine(open_driver(neo4j_target), neo4j_target, catalog=Catalog(FIXTURES)) as raw:
        yield raw


@dataclass(frozen=True)
class Built:
    """The boundary a scenario built, with the sets and entries the tamper tests aim at."""

    first_set: str  # the facts and the decision
    second_set: str  # the supersession, the derivation, the requirement
    czar_set: str
    czar_receipt: str
    invalidation_set: str
    fact: str
    plan: str
    superseding: str


def _build(engine: Any, boundary_id: str) -> Built:
    boundary = engine.boundary(boundary_id)
    fact, decision, loose = (f"{boundary_id}/{n}" for n in ("fact", "decision", "loose"))
    first = boundary.commit(
        proposal(
            boundary_id,
            entry("fact", key="source", body="the source says 42", id=fact, attributes=SOURCE),
            entry("decision", key="db", body="use Neo4j", id=decision),
            entry("fact", key="loose", body="nothing needs this", id=loose, attributes=SOURCE),
        )
    )
    plan, superseding = f"{boundary_id}/plan", f"{boundary_id}/decision-2"
    second = boundary.commit(
        proposal(
            boundary_id,
            entry(
                "decision",
                key="db",
                body="use Neo4j 5",
                id=superseding,
                supersedes=[{"entry_id": decision, "reason": "version"}],
            ),
            entry(
                "plan",
                key="plan",
                body="build on the source",
                id=plan,
                derived_from=[{"entry_id": fact, "essential": True}],
            ),
            entry(
                "constraint",
                key="keep",
                body="keep the source in view",
                requires=[{"entry_id": fact, "policy": "soft", "lease_sets": 20}],
            ),
        )
    )
    assert (first.outcome, second.outcome) == ("commit", "commit")
    for resolution in ("approve", "reject"):  # a halt approved, a halt rejected
        halted = boundary.commit(
            proposal(
                boundary_id,
                entry(key="retry", derived_from=[{"entry_id": decision, "essential": True}]),
            )
        )
        assert halted.outcome == "halt", halted
        engine.halts.resolve(halted.halt_id, resolution, operator_id="operator", reason="ok")
    report = run_czar(boundary)
    czar = next(d for d in report.decisions if d.outcome == "commit")
    radius = boundary.invalidate(fact, reason="the source was wrong", writer_id="operator")
    assert radius.decision.outcome == "commit" and plan in radius.moved_at_risk
    return Built(
        first.set_id,
        second.set_id,
        czar.set_id,
        czar.receipt_id,
        radius.decision.set_id,
        fact,
        plan,
        superseding,
    )


def _found(result: LedgerVerification, problem: LedgerProblem, set_id: str) -> None:
    assert not result.ok
    first = result.first
    assert first is not None
    assert (first.problem, first.set_id) == (problem, set_id), result.findings


def test_a_boundary_built_through_the_gate_verifies_clean(
    czar_free_engine: Any, boundary_id: str
) -> None:
    _build(czar_free_engine, boundary_id)
    result = czar_free_engine.boundary(boundary_id).verify_ledger(page=3)  # several pages
    assert result.ok, result.findings
    # one record per decision: the approved halted set has two (its halt, its commit)
    assert result.records == result.sets + 1, result
    assert result.unchained_sets == 0 and result.head is not None


def test_an_entry_created_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write(
        "tamper/create_entry",
        boundary_id=boundary_id,
        set_id=built.first_set,
        entry_id=f"{boundary_id}/forged",
    )
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.CONTENT_DIFFERS, built.first_set)
    assert result.findings[0].parts == ("entries",)


def test_audit_verify_exits_0_when_clean_and_1_naming_the_set_when_not(
    czar_free_engine: Any, intruder: Engine, neo4j_target: Target, boundary_id: str
) -> None:
    built = _build(czar_free_engine, boundary_id)
    clean = cli(neo4j_target, "audit", "verify", boundary_id)
    assert clean.returncode == 0, clean.stderr
    assert "ledger verified" in clean.stdout
    intruder.executor.write(
        "tamper/edit_body", boundary_id=boundary_id, entry_id=built.plan, body="rewritten"
    )
    found = cli(neo4j_target, "audit", "verify", boundary_id, "--json")
    assert found.returncode == 1, found.stderr
    report = json.loads(found.stdout)
    assert report["ok"] is False
    assert report["findings"][0]["set_id"] == built.second_set
    assert report["findings"][0]["parts"] == ["entries"]


def test_an_entry_created_in_no_set_is_found(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    _build(czar_free_engine, boundary_id)
    forged = f"{boundary_id}/orphan"
    intruder.executor.write("tamper/orphan_entry", boundary_id=boundary_id, entry_id=forged)
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    assert [(f.problem, f.set_id) for f in result.findings] == [(LedgerProblem.ORPHAN_ENTRY, None)]
    assert forged in result.findings[0].detail


def test_a_body_edited_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write(
        "tamper/edit_body", boundary_id=boundary_id, entry_id=built.plan, body="something else"
    )
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.CONTENT_DIFFERS, built.second_set)
    assert result.findings[0].parts == ("entries",)


def test_an_entry_made_to_hold_itself_resident_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    """Whether an entry's own lease keeps it a root is decided at commit and sealed: setting it
    by hand (so the czar would never retire the entry) differs from the record."""
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write("tamper/hold_resident", boundary_id=boundary_id, entry_id=built.plan)
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.CONTENT_DIFFERS, built.second_set)
    assert result.findings[0].parts == ("entries",)


def test_a_status_flipped_around_the_gate_names_the_set_of_its_last_flip(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    """The invalidation put the plan at risk (a legitimate later flip: clean); a raw flip back
    to live differs from the last flip the ledger records, the invalidation set's."""
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write(
        "tamper/flip_status",
        boundary_id=boundary_id,
        entry_id=built.plan,
        status="live",
        resident=True,
    )
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.STATE_DIFFERS, built.invalidation_set)
    assert built.plan in result.findings[0].detail


def test_a_receipt_deleted_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write("tamper/delete_receipt", receipt_id=built.czar_receipt)
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.NO_DIGEST, built.czar_set)


def test_an_edge_relinked_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write(
        "tamper/relink_edge",
        boundary_id=boundary_id,
        **{"from": built.plan, "was": built.fact, "to": built.superseding},
    )
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    _found(result, LedgerProblem.CONTENT_DIFFERS, built.second_set)
    assert result.findings[0].parts == ("edges",)


def test_an_essential_edge_forged_around_the_gate_names_its_set(
    czar_free_engine: Any, intruder: Engine, boundary_id: str
) -> None:
    """No record digests ESSENTIALLY_DERIVED_FROM (the walk's at-risk reach follows it): it is
    checked against the essential DERIVED_FROM edges the records hold. One where no essential
    derivation is, is found at the set of the entry it leaves, and nothing else is."""
    built = _build(czar_free_engine, boundary_id)
    intruder.executor.write(
        "tamper/forge_essential_edge",
        boundary_id=boundary_id,
        **{"from": built.superseding, "to": built.fact},
    )
    result = czar_free_engine.boundary(boundary_id).verify_ledger()
    assert [(f.problem, f.set_id) for f in result.findings] == [
        (LedgerProblem.ESSENTIAL_EDGES_DIFFER, built.second_set)
    ]
    detail = result.findings[0].detail
    assert built.superseding in detail
    assert f"an edge to {boundary_id}/{built.fact}, not essentially derived" in detail


def test_sets_decided_before_the_ledger_are_unchained_not_failures(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """A boundary whose first sets were written without the ledger (as before it existed)
    verifies with those sets counted as unchained; the chain starts after them."""
    engine = czar_free_engine
    engine.boundary(boundary_id)
    counter = get_token_counter(engine.settings.embedding)
    old = GateStore(engine.executor, engine.constitutions.get, counter.count, seal_ledger=False)
    before = Boundary(
        engine.executor,
        old,
        boundary_id,
        settings=engine.settings,
        constitution_for=engine.constitutions.get,
    )
    for key in ("a", "b"):
        assert before.commit(proposal(boundary_id, entry(key=key))).outcome == "commit"
    boundary = engine.boundary(boundary_id)
    assert boundary.commit(proposal(boundary_id, entry(key="c"))).outcome == "commit"
    result = boundary.verify_ledger()
    assert result.ok, result.findings
    assert (result.records, result.unchained_sets, result.chained_since_seq) == (1, 2, 2)
