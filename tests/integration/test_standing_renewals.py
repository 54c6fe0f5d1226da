"""A lease renews only by a standing use: throwaway derivations that nothing holds (and the czar
then retires) do not keep a lease alive (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable
from tests.factories import entry, proposal


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any]) -> None:
    decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)


def test_throwaway_derivations_the_czar_retires_do_not_keep_a_lease_alive(
    engine: Any, boundary_id: str
) -> None:
    """Before: a scratch entry derived from the fact every set renewed its lease by use, so the
    lease never ended though the czar retired every one of the scratch entries."""
    # no czar cadence: the czar runs only when the test runs it
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    fact = f"{boundary_id}-f"
    _commit(
        boundary,
        boundary_id,
        entry(cls="fact", key="f", body="the fact", id=fact, attributes={"source": "test"}),
    )
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 2}
    _commit(
        boundary, boundary_id, entry(key="d", body="uses f", requires=[soft])
    )  # lease to work 4
    throwaway = [f"{boundary_id}-x{i}" for i in range(6)]
    for i, entry_id in enumerate(throwaway):
        _commit(
            boundary,
            boundary_id,
            entry(
                cls="scratch",
                key=f"x{i}",
                body="a throwaway derivation",
                id=entry_id,
                derived_from=[{"entry_id": fact, "essential": False}],
            ),
        )
        run_czar(boundary)  # each throwaway is unreachable: the czar retires it
    renewals = engine.run_audit("lease_renewals", boundary_id=boundary_id).rows
    assert [r for r in renewals if r["by_id"] in throwaway] == []
    assert fact not in reachable(boundary).reached  # work 8: the lease to work 4 ran out
    statuses = {
        row["id"]: row["status"]
        for row in engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    }
    assert all(statuses[i] == "retired" for i in throwaway), statuses
    assert statuses[fact] == "retired"


def test_a_standing_use_still_renews(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    fact = f"{boundary_id}-f"
    _commit(
        boundary,
        boundary_id,
        entry(cls="fact", key="f", body="the fact", id=fact, attributes={"source": "test"}),
    )
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 2}
    _commit(boundary, boundary_id, entry(key="d", body="uses f", requires=[soft]))
    note = f"{boundary_id}-note"
    kept = f"{boundary_id}-kept"
    _commit(
        boundary,
        boundary_id,
        entry(
            cls="scratch",
            key="note",
            body="held by the decision of its set",
            id=note,
            derived_from=[{"entry_id": fact, "essential": False}],
        ),
        entry(key="kept", body="a decision", id=kept, requires=[{"entry_id": note}]),
    )
    renewals = engine.run_audit("lease_renewals", boundary_id=boundary_id).rows
    assert [(r["kind"], r["by_id"]) for r in renewals] == [("use", note)]
