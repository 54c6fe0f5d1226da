"""Counters that do not lie (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.record.history import as_of
from kg_context.residency.metrics import stats
from tests.factories import entry, proposal


def test_the_halt_rate_counts_every_halt_raised_with_open_and_resolved_apart(
    engine: Any, boundary_id: str
) -> None:
    """halt_rate counts every halt raised, not only sets still halted, so it does not read 0.00%
    once operators have approved every halt."""
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="plain")))
    first = boundary.commit(proposal(boundary_id, entry(verse="global", key="g1")))
    second = boundary.commit(proposal(boundary_id, entry(verse="global", key="g2")))
    engine.halts.resolve(first.halt_id, "approve", operator_id="operator", reason="vetted")
    current = stats(boundary)
    assert current.sets == {"ratified": 2, "halted": 1}
    assert (current.halts_open, current.halts_resolved) == (1, 1)
    assert current.halt_rate == 2 / 3
    engine.halts.resolve(second.halt_id, "approve", operator_id="operator", reason="vetted")
    after = stats(boundary)
    assert (after.halts_open, after.halts_resolved, after.halt_rate) == (0, 2, 2 / 3)
    assert after.as_dict()["halt_rate"] == 2 / 3


def test_as_of_reports_an_entry_created_explored_as_explored_and_out_of_the_window(
    engine: Any, boundary_id: str
) -> None:
    """as_of does not assume every entry started live: an entry created `explored` (out of the
    window from birth) reads as explored and not resident."""
    boundary = engine.boundary(boundary_id)
    tried = f"{boundary_id}/tried"
    boundary.commit(
        proposal(
            boundary_id, entry(cls="scratch", id=tried, key="t", attributes={"explored": True})
        )
    )
    kept = f"{boundary_id}/kept"
    boundary.commit(proposal(boundary_id, entry(id=kept, key="k")))
    then = as_of(boundary, 2)
    assert then.states()[tried] == ("explored", False)
    assert then.states()[kept] == ("live", True)
    assert tried not in {e.id for e in then.window}
