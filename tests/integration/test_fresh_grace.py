"""The grace of a fresh entry: the own lease of an entry whose class ``[roots] leased`` does not
name makes it a root for at most ``[roots] fresh_sets`` work sets after its commit, fixed at
commit; neither declaring the entry again nor using it extends that (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable, why
from tests.factories import constitution_variant, entry, proposal

GRACE = 3


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any]) -> Any:
    return boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"]))


def _work(boundary: Any, boundary_id: str, n: int) -> None:
    """``n`` work sets that neither require nor mention anything else."""
    for _ in range(n):
        decision = _commit(boundary, boundary_id, entry(key=f"filler-{id(object())}", body="x"))
        assert decision.outcome == "commit", (decision.reason_code, decision.detail)


def _status(engine: Any, boundary_id: str, entry_id: str) -> tuple[str, bool]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    row = next(r for r in rows if r["id"] == entry_id)
    return row["status"], row["resident"]


def test_the_shipped_constitution_grants_a_bounded_grace() -> None:
    assert load_constitution().roots.fresh_sets == 60


def test_a_fresh_fact_nothing_requires_stays_through_its_grace_and_no_longer(
    engine: Any, boundary_id: str
) -> None:
    short = constitution_variant(
        f"grace-{boundary_id[-12:]}", ("fresh_sets = 60", f"fresh_sets = {GRACE}")
    )
    # no czar cadence: the czar runs only when the test runs it
    boundary = engine.boundary(boundary_id, constitution=short, czar_every_commits=0)
    fact, question = f"{boundary_id}-fact", f"{boundary_id}-q"
    committed = _commit(
        boundary,
        boundary_id,
        entry(
            cls="fact",
            key="ev/p99",
            body="p99 = 40ms",
            id=fact,
            expires_after=500,
            attributes={"source": "measurement"},
        ),
        entry(cls="open_question", key="q", body="which cache?", id=question, expires_after=500),
    )
    assert committed.outcome == "commit", (committed.reason_code, committed.detail)
    # Inside the grace the fact is a root of its own: the czar keeps it.
    _work(boundary, boundary_id, GRACE - 1)
    assert fact in reachable(boundary).reached
    run_czar(boundary)
    assert _status(engine, boundary_id, fact) == ("live", True)
    assert why(boundary, fact).nodes[0].id == fact

    # The writer declares the entry again with a longer lease (refused: an entry is written
    # once) and uses it (a DERIVED_FROM renews edges into it, never its own lease).
    again = _commit(
        boundary,
        boundary_id,
        entry(
            cls="fact",
            key="ev/p99",
            body="p99 = 40ms",
            id=fact,
            expires_after=1000,
            attributes={"source": "measurement"},
        ),
    )
    assert (again.outcome, again.reason_code) == ("reject", "ENTRY_ID_TAKEN")
    used = _commit(
        boundary,
        boundary_id,
        entry(
            cls="fact",
            key="drv/p99",
            body="budget = 2x p99",
            derived_from=[{"entry_id": fact, "essential": False}],
        ),
    )
    assert used.outcome == "commit", (used.reason_code, used.detail)

    # The grace has run out: nothing requires the fact, so the czar retires it; the open
    # question (a [roots] leased class) keeps its whole lease.
    assert fact not in reachable(boundary).reached
    run_czar(boundary)
    assert _status(engine, boundary_id, fact) == ("retired", False)
    assert _status(engine, boundary_id, question) == ("live", True)
    assert not why(boundary, fact).held
