"""Revisions without declared supersession, decided by the constitution's ``[on_revision]`` rule
(against the real Neo4j): a new live entry of a class on a key where a live resident entry of
that class stands, that does not declare it supersedes it, either supersedes it by the rule
(named on the edge, the receipts and the decision), halts ``UNDECLARED_REVISION`` with the
amendment that would decide it, or stands beside it. Declared supersessions, other keys and other
classes are untouched; the ledger and every must-be-empty audit stay clean."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.errors import AuthorizationError
from kg_context.gate.pure.constitution import load_constitution
from tests.factories import constitution_variant, entry, proposal

DEFAULT = load_constitution()
RULE = "on_revision=supersede"
_SHIPPED_RULES = "[on_revision]\n"


def _with_rule(boundary_id: str, name: str, decision: str) -> Any:
    """The default constitution with ``[on_revision] decision = <decision>``."""
    return constitution_variant(
        f"rev-{name}-{boundary_id[-12:]}",
        ('decision = "supersede"', f'decision = "{decision}"'),
    )


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _state(engine: Any, boundary_id: str, entry_id: str) -> tuple[str, bool]:
    row = _entries(engine, boundary_id)[entry_id]
    return row["status"], row["resident"]


def _window(boundary: Any) -> set[str]:
    return {e.id for e in boundary.window().entries}


def _receipts(engine: Any, boundary_id: str, set_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/receipts", boundary_id=boundary_id, family=None)
    return {r["kind"]: r["fields"] for r in rows if r["set_id"] == set_id}


def _clean(engine: Any, boundary: Any, boundary_id: str) -> None:
    assert boundary.verify_ledger().ok
    assert [a.audit.name for a in engine.invariants(boundary_id) if not a.clean] == []


def _seeded(engine: Any, boundary_id: str, name: str, rule: str) -> tuple[Any, str]:
    """A boundary under ``[on_revision] decision = <rule>`` holding one live decision on key
    ``datastore``: its handle and that decision's id."""
    boundary = engine.boundary(boundary_id, constitution=_with_rule(boundary_id, name, rule))
    return boundary, _first(boundary, boundary_id)


def _first(boundary: Any, boundary_id: str, cls: str = "decision", key: str = "datastore") -> str:
    old = f"{boundary_id}-old"
    seeded = boundary.commit(
        proposal(boundary_id, entry(cls=cls, id=old, key=key, body="Postgres"))
    )
    assert seeded.outcome == "commit", seeded
    return old


def test_under_the_shipped_default_an_undeclared_decision_revision_supersedes_by_the_rule(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    assert DEFAULT.revision_rule("decision") == "supersede"
    old = _first(boundary, boundary_id)
    new = f"{boundary_id}-new"
    revised = boundary.commit(proposal(boundary_id, entry(id=new, key="datastore", body="Neo4j")))
    assert revised.outcome == "commit", revised
    assert revised.rule_made == (f"{RULE}: {new} supersedes {old}",)
    assert "superseded by the constitution's rule" in revised.feedback()
    assert _state(engine, boundary_id, old) == ("superseded", False)
    assert _window(boundary) == {new}
    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [(c["new_id"], c["old_id"], c["executed"], c["rule"], c["reason"]) for c in chain] == [
        (new, old, True, RULE, f"rule: {RULE}")
    ]
    receipts = _receipts(engine, boundary_id, revised.set_id)
    for kind in ("review", "commit"):
        assert receipts[kind]["rule_made"] == [f"{RULE}: {new} supersedes {old}"]
        assert f"rule: {RULE}" in receipts[kind]["reasons"]
    assert f"supersede:{old}" in receipts["commit"]["allowed_effects"]
    _clean(engine, boundary, boundary_id)


def test_a_pin_revision_supersedes_too_and_a_fact_on_the_key_stands(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    pin = _first(boundary, boundary_id, cls="pin", key="style")
    fact = f"{boundary_id}-fact-1"
    boundary.commit(
        proposal(boundary_id, entry(cls="fact", id=fact, key="style", attributes={"source": "x"}))
    )
    second_fact = boundary.commit(
        proposal(
            boundary_id, entry(cls="fact", key="style", body="tabs", attributes={"source": "y"})
        )
    )
    assert (second_fact.outcome, second_fact.rule_made) == ("commit", ())
    new_pin = boundary.commit(proposal(boundary_id, entry(cls="pin", key="style", body="spaces")))
    assert new_pin.rule_made == (f"{RULE}: {new_pin.entry_ids[0]} supersedes {pin}",)
    assert _state(engine, boundary_id, pin) == ("superseded", False)
    assert _window(boundary) == {fact, second_fact.entry_ids[0], new_pin.entry_ids[0]}
    _clean(engine, boundary, boundary_id)


def test_under_halt_an_undeclared_revision_halts_with_the_amendment_that_decides_it(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, "halt", "halt")
    new = f"{boundary_id}-new"
    held = boundary.commit(proposal(boundary_id, entry(id=new, key="datastore", body="Neo4j")))
    assert (held.outcome, held.reason_code) == ("halt", "UNDECLARED_REVISION")
    assert old in (held.detail or "") and new in (held.detail or "")
    assert held.suggested_amendment is not None
    assert held.suggested_amendment.startswith('[on_revision] decision = "supersede"')
    assert _window(boundary) == {old}  # nothing of the halted set entered the window
    assert _state(engine, boundary_id, old) == ("live", True)

    # The operator adopts the suggested rule; the halted set is decided again under it.
    amended = _with_rule(boundary_id, "amended", "supersede")
    result = engine.halts.resolve(
        held.halt_id,
        "amend",
        operator_id="operator",
        reason="decisions revise",
        amendment=amended.text,
    )
    assert result.decision is not None and result.decision.outcome == "commit"
    assert result.decision.rule_made == (f"{RULE}: {new} supersedes {old}",)
    assert _state(engine, boundary_id, old) == ("superseded", False)
    assert _window(boundary) == {new}
    _clean(engine, boundary, boundary_id)


def test_an_approved_undeclared_revision_halt_lets_both_stand(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, "halt", "halt")
    held = boundary.commit(proposal(boundary_id, entry(key="datastore", body="Neo4j")))
    assert held.reason_code == "UNDECLARED_REVISION"
    result = engine.halts.resolve(held.halt_id, "approve", operator_id="operator", reason="both")
    assert result.decision is not None and result.decision.outcome == "commit"
    assert result.decision.rule_made == ()
    assert _window(boundary) == {old, *result.decision.entry_ids}
    _clean(engine, boundary, boundary_id)


def test_under_stand_both_entries_stand(czar_free_engine: Any, boundary_id: str) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, "stand", "stand")
    revised = boundary.commit(proposal(boundary_id, entry(key="datastore", body="Neo4j")))
    assert (revised.outcome, revised.rule_made) == ("commit", ())
    assert _window(boundary) == {old, revised.entry_ids[0]}
    assert engine.executor.read("audits/supersession_chain", boundary_id=boundary_id) == []
    assert "rule_made" not in _receipts(engine, boundary_id, revised.set_id)["commit"]
    _clean(engine, boundary, boundary_id)


@pytest.mark.parametrize("rule", ["supersede", "halt"])
def test_a_declared_supersession_is_decided_as_declared_under_every_rule(
    czar_free_engine: Any, boundary_id: str, rule: str
) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, f"d{rule}", rule)
    declared = boundary.commit(
        proposal(
            boundary_id,
            entry(key="datastore", body="Neo4j", supersedes=[{"entry_id": old, "reason": "walks"}]),
        )
    )
    assert (declared.outcome, declared.rule_made) == ("commit", ())
    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [(c["old_id"], c["reason"], c["rule"]) for c in chain] == [(old, "walks", None)]
    assert _window(boundary) == {declared.entry_ids[0]}
    _clean(engine, boundary, boundary_id)


@pytest.mark.parametrize("rule", ["supersede", "halt"])
def test_another_key_or_class_is_no_revision(
    czar_free_engine: Any, boundary_id: str, rule: str
) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, f"o{rule}", rule)
    other_key = boundary.commit(proposal(boundary_id, entry(key="cache", body="Redis")))
    other_class = boundary.commit(proposal(boundary_id, entry(cls="plan", key="datastore")))
    explored = boundary.commit(
        proposal(boundary_id, entry(key="datastore", body="tried", attributes={"explored": True}))
    )
    for decided in (other_key, other_class, explored):
        assert (decided.outcome, decided.rule_made) == ("commit", ()), decided
    assert _window(boundary) == {old, other_key.entry_ids[0], other_class.entry_ids[0]}
    _clean(engine, boundary, boundary_id)


def test_two_new_entries_on_one_key_in_one_set_the_first_carries_the_rule(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    old = _first(boundary, boundary_id)
    a, b = f"{boundary_id}-a", f"{boundary_id}-b"
    both = boundary.commit(
        proposal(
            boundary_id,
            entry(id=a, key="datastore", body="Neo4j"),
            entry(id=b, key="datastore", body="Neo4j, clustered"),
        )
    )
    assert both.outcome == "commit"
    assert both.rule_made == (f"{RULE}: {a} supersedes {old}",)
    assert _window(boundary) == {a, b}
    # The next revision of the key supersedes both of them.
    later = boundary.commit(proposal(boundary_id, entry(key="datastore", body="Neo4j 5")))
    c = later.entry_ids[0]
    assert later.rule_made == (f"{RULE}: {c} supersedes {a}", f"{RULE}: {c} supersedes {b}")
    assert _window(boundary) == {c}
    _clean(engine, boundary, boundary_id)


def test_revisions_in_one_batch_chain_in_ledger_order(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """Sets later in a batch see the entries earlier sets created, as if committed one by one."""
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    old = _first(boundary, boundary_id)
    decided = boundary.commit_many(
        [
            proposal(boundary_id, entry(key="datastore", body="v2"), set_id=f"{boundary_id}-s2"),
            proposal(boundary_id, entry(key="datastore", body="v3"), set_id=f"{boundary_id}-s3"),
        ]
    )
    assert [d.outcome for d in decided] == ["commit", "commit"]
    v2, v3 = decided[0].entry_ids[0], decided[1].entry_ids[0]
    assert decided[0].rule_made == (f"{RULE}: {v2} supersedes {old}",)
    assert decided[1].rule_made == (f"{RULE}: {v3} supersedes {v2}",)
    assert _window(boundary) == {v3}
    _clean(engine, boundary, boundary_id)


def test_a_rule_made_supersession_passes_the_usual_checks(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """The rule adds a supersession as if declared: the fan-out limit counts it, so the gate does
    not accept under the rule a set it would refuse with the supersession declared."""
    engine = czar_free_engine
    tight = constitution_variant(
        f"rev-fanout-{boundary_id[-12:]}", ("max_set_fanout = 64", "max_set_fanout = 0")
    )
    boundary = engine.boundary(boundary_id, constitution=tight)
    _first(boundary, boundary_id)
    held = boundary.commit(proposal(boundary_id, entry(key="datastore", body="Neo4j")))
    assert (held.outcome, held.reason_code) == ("halt", "DENSITY")


def test_setting_the_rule_is_an_operators_constitution_change(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary, old = _seeded(engine, boundary_id, "pstand", "stand")
    halting = _with_rule(boundary_id, "phalt", "halt")
    with pytest.raises(AuthorizationError):
        boundary.propose_constitution(halting.text, writer_id="writer-1", reason="mine")
    assert boundary.constitution().revision_rule("decision") == "stand"
    changed = boundary.propose_constitution(halting.text, writer_id="operator", reason="revisions")
    assert changed.outcome == "commit"
    assert boundary.constitution().revision_rule("decision") == "halt"
    held = boundary.commit(proposal(boundary_id, entry(key="datastore", body="Neo4j")))
    assert held.reason_code == "UNDECLARED_REVISION"
    assert _window(boundary) == {old}
    _clean(engine, boundary, boundary_id)


def test_a_rule_for_a_class_the_constitution_does_not_know_is_invalid() -> None:
    from kg_context.errors import ConfigurationError
    from kg_context.gate.pure.constitution import parse_constitution

    text = DEFAULT.text.replace(_SHIPPED_RULES, '[on_revision]\nghost = "supersede"\n')
    with pytest.raises(ConfigurationError, match="ghost"):
        parse_constitution(text)
    bad = DEFAULT.text.replace('decision = "supersede"', 'decision = "merge"')
    with pytest.raises(ConfigurationError, match="on_revision"):
        parse_constitution(bad)
