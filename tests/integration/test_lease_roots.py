"""An entry's own lease makes it a root only for the classes the constitution's ``[roots] leased``
names; an entry of another class has a bounded grace (``[roots] fresh_sets``), past which a fact
that declares it holds itself stays only while something requires it (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable, why
from tests.factories import constitution_variant, entry, proposal


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any]) -> None:
    decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)


def _status(engine: Any, boundary_id: str, entry_id: str) -> tuple[str, bool]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    row = next(r for r in rows if r["id"] == entry_id)
    return row["status"], row["resident"]


def _seed(boundary: Any, boundary_id: str) -> tuple[str, str, str]:
    """A measurement that declares a lease and nothing requires, one a decision requires, and an
    open question with a lease; their ids."""
    loose, cited, question = (f"{boundary_id}-{n}" for n in ("loose", "cited", "q"))
    source = {"source": "measurement"}
    _commit(
        boundary,
        boundary_id,
        entry(
            cls="fact", key="ev/a", body="p99 = 40ms", id=loose, expires_after=50, attributes=source
        ),
        entry(
            cls="fact", key="ev/b", body="p99 = 90ms", id=cited, expires_after=50, attributes=source
        ),
        entry(cls="open_question", key="q", body="which cache?", id=question, expires_after=50),
    )
    soft = {"entry_id": cited, "policy": "soft", "lease_sets": 20, "needs": ["body"]}
    _commit(boundary, boundary_id, entry(key="d", body="cache = lru", requires=[soft]))
    return loose, cited, question


def test_past_its_grace_a_self_leased_fact_nothing_requires_leaves_the_window(
    engine: Any, boundary_id: str
) -> None:
    """With no grace (``[roots] fresh_sets`` absent) the fact is out at once; with one it is out
    once the grace ends (``test_fresh_grace.py``)."""
    no_grace = constitution_variant(f"nograce-{boundary_id[-12:]}", ("fresh_sets = 60\n", ""))
    assert no_grace.roots.fresh_sets == 0
    # no czar cadence: the czar runs only when the test runs it
    boundary = engine.boundary(boundary_id, constitution=no_grace, czar_every_commits=0)
    loose, cited, question = _seed(boundary, boundary_id)
    held = reachable(boundary).reached
    assert loose not in held  # its own lease does not make a fact a root
    assert cited in held  # a standing decision requires it
    assert question in held  # an open question is a root while its lease runs
    run_czar(boundary)
    assert _status(engine, boundary_id, loose) == ("retired", False)
    assert _status(engine, boundary_id, cited) == ("live", True)
    assert _status(engine, boundary_id, question) == ("live", True)
    assert not why(boundary, loose).held
    assert why(boundary, question).nodes[0].id == question


def test_an_operator_who_lists_fact_in_roots_leased_keeps_self_leased_facts(
    engine: Any, boundary_id: str
) -> None:
    leased = constitution_variant(
        f"leased-{boundary_id[-12:]}",
        (
            'leased = ["rejected_alternative", "open_question", "scratch"]',
            'leased = ["rejected_alternative", "open_question", "scratch", "fact"]',
        ),
    )
    boundary = engine.boundary(boundary_id, constitution=leased, czar_every_commits=0)
    loose, _, _ = _seed(boundary, boundary_id)
    assert loose in reachable(boundary).reached
    run_czar(boundary)
    assert _status(engine, boundary_id, loose) == ("live", True)
    assert why(boundary, loose).nodes[0].id == loose


def test_no_interface_stands_in_for_a_superseded_entry(engine: Any, boundary_id: str) -> None:
    """A dependent holds a measurement through a soft edge naming ``needs``; a new measurement
    supersedes it. The czar builds no interface of the superseded one (an interface of replaced
    state is stale by construction), and the window holds the decision and the new measurement."""
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    old, new = f"{boundary_id}-m1", f"{boundary_id}-m2"
    source = {"source": "measurement"}
    _commit(
        boundary,
        boundary_id,
        entry(cls="fact", key="ev/p99", body="p99 = 40ms", id=old, attributes=source),
    )
    soft = {"entry_id": old, "policy": "soft", "lease_sets": 20, "needs": ["body"]}
    decision = f"{boundary_id}-d"
    _commit(boundary, boundary_id, entry(key="d", body="cache = lru", id=decision, requires=[soft]))
    _commit(
        boundary,
        boundary_id,
        entry(
            cls="fact",
            key="ev/p99",
            body="p99 = 70ms",
            id=new,
            attributes=source,
            supersedes=[{"entry_id": old, "reason": "re-measured"}],
        ),
    )
    run_czar(boundary)
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    assert [r["id"] for r in rows if r["class"] == "interface"] == []
    window = {e.id for e in boundary.window().entries}
    assert decision in window and old not in window
