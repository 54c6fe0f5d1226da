"""Defensive hard fan-out, decided by the constitution's ``[hard_fanout]`` rule (against the real
Neo4j): a new entry's hard ``REQUIRES`` on entries outside its own set beyond the per-entry budget
either halt ``DENSITY`` with the amendment a writer can act on by itself (resubmit them soft), or
commit soft with the rule's lease, named in the receipts, so a defensive edge nothing renews
expires and its target leaves the window while the edges within the budget keep theirs. The set
has a budget too: a writer that splits its pins across tiny entries of one set, each within its
own budget, is over the set's."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable
from tests.factories import constitution_variant, entry, proposal

RULE = "hard_fanout=soften"
LEASE = 2


def _rules(boundary_id: str, name: str, excess: str) -> Any:
    """The default constitution with ``[hard_fanout] excess = <excess>``, only the edges beyond
    the budget given up, soft edges and a short lease."""
    return constitution_variant(
        f"fan-{name}-{boundary_id[-12:]}",
        ('excess = "soften"', f'excess = "{excess}"'),
        ('over_budget = "all"', 'over_budget = "beyond"'),
        ('policy = "reconstructible"', 'policy = "soft"'),
        ("lease_sets = 20", f"lease_sets = {LEASE}"),
    )


def _facts(boundary: Any, boundary_id: str, prefix: str = "ev") -> list[str]:
    """Three measurements, each its own set, held by nothing yet."""
    ids = []
    for n in range(3):
        fact = f"{boundary_id}-{prefix}{n}"
        done = boundary.commit(
            proposal(
                boundary_id,
                entry(
                    cls="fact",
                    key=f"{prefix}/{n}",
                    body=f"p99 = {40 + n}ms",
                    id=fact,
                    attributes={"source": "measurement"},
                ),
            )
        )
        assert done.outcome == "commit", (done.reason_code, done.detail)
        ids.append(fact)
    return ids


def _decision(boundary_id: str, facts: list[str], *, soft_last: bool = False) -> dict[str, Any]:
    requires: list[dict[str, Any]] = [{"entry_id": f, "policy": "hard"} for f in facts]
    if soft_last:
        requires[-1] = {"entry_id": facts[-1], "policy": "soft", "lease_sets": LEASE}
    return proposal(
        boundary_id,
        entry(key="cache/policy", body="LRU", id=f"{boundary_id}-dec", requires=requires),
    )


def _status(engine: Any, boundary_id: str, entry_id: str) -> tuple[str, bool]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    row = next(r for r in rows if r["id"] == entry_id)
    return row["status"], row["resident"]


def _receipts(engine: Any, boundary_id: str, set_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/receipts", boundary_id=boundary_id, family=None)
    return {r["kind"]: r["fields"] for r in rows if r["set_id"] == set_id}


def test_the_shipped_constitution_budgets_hard_requires_per_entry() -> None:
    rule = load_constitution().hard_fanout
    assert (
        rule.per_entry,
        rule.per_set,
        rule.over_budget,
        rule.excess,
        rule.policy,
        rule.lease_sets,
    ) == (2, 2, "all", "soften", "reconstructible", 20)


def test_under_halt_excess_hard_edges_halt_density_and_the_writer_resubmits_them_soft(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id, constitution=_rules(boundary_id, "halt", "halt"))
    facts = _facts(boundary, boundary_id)
    held = boundary.commit(_decision(boundary_id, facts))
    assert (held.outcome, held.reason_code) == ("halt", "DENSITY")
    assert "3 hard REQUIRES on entries outside its set" in (held.detail or "")
    assert "[hard_fanout] per_entry is 2" in (held.detail or "")
    assert held.suggested_amendment is not None
    assert held.suggested_amendment.startswith(
        f'resubmit with the REQUIRES on {facts[2]} "soft" with lease_sets = {LEASE}'
    )
    assert f"{boundary_id}-dec" not in {e.id for e in boundary.window().entries}

    # The writer acts on the amendment without a person: it withdraws nothing it said, and
    # declares the excess edge soft with the lease; the set commits with no rule applied.
    engine.halts.resolve(held.halt_id, "reject", operator_id="operator", reason="resubmitted")
    resubmitted = boundary.commit(_decision(boundary_id, facts, soft_last=True))
    assert resubmitted.outcome == "commit", (resubmitted.reason_code, resubmitted.detail)
    assert resubmitted.rule_made == ()
    assert boundary.verify_ledger().ok


def test_under_soften_excess_hard_edges_commit_soft_named_in_the_receipts_and_expire(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id, constitution=_rules(boundary_id, "soft", "soften"))
    facts = _facts(boundary, boundary_id)
    decided = boundary.commit(_decision(boundary_id, facts))
    assert decided.outcome == "commit", (decided.reason_code, decided.detail)
    made = (
        f"{RULE}: {boundary_id}-dec requires {facts[2]}: hard beyond 2 per entry, "
        f"committed soft for {LEASE} work sets"
    )
    assert decided.rule_made == (made,)
    receipts = _receipts(engine, boundary_id, decided.set_id)
    for kind in ("review", "commit"):
        assert receipts[kind]["rule_made"] == [made]
        assert f"rule: {RULE}" in receipts[kind]["reasons"]
    assert set(facts) <= reachable(boundary).reached

    # The lease runs out and nothing renews it: the softened target leaves the window, the two
    # edges within the budget still hold theirs; provenance and the record are untouched.
    for n in range(LEASE + 1):
        filler = boundary.commit(proposal(boundary_id, entry(key=f"filler/{n}", body="x")))
        assert filler.outcome == "commit", (filler.reason_code, filler.detail)
    reached = reachable(boundary).reached
    assert facts[2] not in reached and {facts[0], facts[1]} <= reached
    run_czar(boundary)
    assert _status(engine, boundary_id, facts[2]) == ("retired", False)
    assert _status(engine, boundary_id, facts[0]) == ("live", True)
    assert boundary.verify_ledger().ok
    assert [a.audit.name for a in engine.invariants(boundary_id) if not a.clean] == []


def _split_set(boundary_id: str, facts: list[str]) -> dict[str, Any]:
    """A hostile writer's set: the decision holds three tiny facts of its own set hard (never
    counted), and each tiny fact holds two of the earlier facts hard, within its own budget."""
    tiny = [
        entry(
            cls="fact",
            key=f"note/{n}",
            body=f"see {facts[2 * n]}",
            id=f"{boundary_id}-t{n}",
            derived_from=[{"entry_id": facts[2 * n]}],
            requires=[
                {"entry_id": facts[2 * n], "policy": "hard"},
                {"entry_id": facts[2 * n + 1], "policy": "hard"},
            ],
        )
        for n in range(3)
    ]
    decision = entry(
        key="cache/policy",
        body="LRU",
        id=f"{boundary_id}-dec",
        requires=[{"entry_id": t["id"], "policy": "hard"} for t in tiny],
    )
    return proposal(boundary_id, decision, *tiny)


def _six_facts(boundary: Any, boundary_id: str) -> list[str]:
    return _facts(boundary, boundary_id) + _facts(boundary, boundary_id, "more")


def test_a_writer_splitting_its_pins_across_tiny_entries_of_one_set_is_over_the_set_budget(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    facts = _six_facts(boundary, boundary_id)
    decided = boundary.commit(_split_set(boundary_id, facts))
    assert decided.outcome == "commit", (decided.reason_code, decided.detail)
    assert len(decided.rule_made) == 6
    assert all("hard beyond 2 per set, committed reconstructible" in m for m in decided.rule_made)
    # The tiny entries stay (the decision holds them hard, within its set); the six pins are
    # reconstructible, and the record gives each fact back, so none of them holds.
    reached = reachable(boundary).reached
    assert {f"{boundary_id}-t{n}" for n in range(3)} <= reached
    assert not set(facts) & reached
    run_czar(boundary)
    assert {_status(engine, boundary_id, f)[1] for f in facts} == {False}
    assert boundary.verify_ledger().ok


def test_without_a_set_budget_the_split_pins_every_fact(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """What the set budget closes: with no ``per_set`` (the version 13 rule), each tiny entry is
    within its own budget and the split pins all six facts hard."""
    engine = czar_free_engine
    rules = constitution_variant(f"fan-noset-{boundary_id[-12:]}", ("per_set = 2\n", ""))
    boundary = engine.boundary(boundary_id, constitution=rules)
    facts = _six_facts(boundary, boundary_id)
    decided = boundary.commit(_split_set(boundary_id, facts))
    assert decided.outcome == "commit", (decided.reason_code, decided.detail)
    assert decided.rule_made == ()
    assert set(facts) <= reachable(boundary).reached
