"""A held edge into a replaced entry holds what replaced it (``[roots] successors``): a REQUIRES
that holds into a superseded or invalidated entry holds the standing entries that superseded it,
for as long as it would hold its target; a successor nothing requires the predecessor of, or whose
holder's lease has run out or whose holder was replaced, is not held (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.commit_plan import RULE_SUCCESSORS
from kg_context.gate.pure.constitution import load_constitution
from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable, why
from tests.factories import constitution_variant, entry, proposal

LEASE = 3


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any]) -> Any:
    decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _work(boundary: Any, boundary_id: str, n: int) -> None:
    """``n`` work sets that neither require nor mention anything else."""
    for _ in range(n):
        _commit(boundary, boundary_id, entry(key=f"filler-{id(object())}", body="x"))


def _status(engine: Any, boundary_id: str, entry_id: str) -> tuple[str, bool]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    row = next(r for r in rows if r["id"] == entry_id)
    return row["status"], row["resident"]


def _fact(entry_id: str, key: str, value: str, supersedes: str | None = None) -> dict[str, Any]:
    return entry(
        cls="fact",
        key=key,
        body=f"{key} = {value}",
        id=entry_id,
        expires_after=500,
        attributes={"source": "measurement"},
        supersedes=[{"entry_id": supersedes, "reason": "a new measurement"}] if supersedes else [],
    )


def _cache_requiring(boundary: Any, b: str, target: str, **edge: Any) -> Any:
    """Commit the decision ``cache = redis`` (id ``<b>-cache``) with one REQUIRES on ``target``."""
    requirement = {"entry_id": target, **edge}
    return _commit(
        boundary,
        b,
        entry(key="cache", body="cache = redis", id=f"{b}-cache", requires=[requirement]),
    )


def _no_grace(boundary_id: str, *more: tuple[str, str]) -> Any:
    """The default constitution without the fresh grace (a fact is held by reachability only)."""
    return constitution_variant(
        f"succ-{boundary_id[-12:]}", ("fresh_sets = 60", "fresh_sets = 0"), *more
    )


def test_the_shipped_constitution_holds_successors() -> None:
    assert load_constitution().roots.successors is True


def test_a_successor_is_held_only_through_a_held_edge_into_what_it_replaced(
    engine: Any, boundary_id: str
) -> None:
    # no czar cadence: the czar runs only when the test runs it
    boundary = engine.boundary(
        boundary_id, constitution=_no_grace(boundary_id), czar_every_commits=0
    )
    b = boundary_id
    _commit(boundary, b, entry(key="region", body="region = eu"))  # a root: the window stays

    # Not held: the replaced fact was required by nothing standing, so its successor is not
    # reached and the czar retires it.
    _commit(boundary, b, _fact(f"{b}-mem1", "ev/mem", "40mb"))
    unheld = _commit(boundary, b, _fact(f"{b}-mem2", "ev/mem", "45mb", supersedes=f"{b}-mem1"))
    assert unheld.rule_made == ()
    assert f"{b}-mem2" not in reachable(boundary).reached
    run_czar(boundary)
    assert _status(engine, b, f"{b}-mem2") == ("retired", False)

    # Held: a decision requires the first p99 measurement for LEASE work sets; a newer
    # measurement supersedes it, and the decision's edge holds the newer one in its place.
    _commit(boundary, b, _fact(f"{b}-p1", "ev/p99", "40ms"))
    cache = _cache_requiring(boundary, b, f"{b}-p1", policy="soft", lease_sets=LEASE)
    newer = _commit(boundary, b, _fact(f"{b}-p2", "ev/p99", "55ms", supersedes=f"{b}-p1"))
    assert newer.rule_made == (
        f"{RULE_SUCCESSORS}: {b}-p2 held through the REQUIRES of {b}-cache on {b}-p1 "
        f"(soft, lease until work seq {cache.seq - 1 + LEASE})",  # the czar's set is no work
    )
    _commit(boundary, b, _fact(f"{b}-p3", "ev/p99", "60ms", supersedes=f"{b}-p2"))
    held = reachable(boundary).reached
    assert f"{b}-p3" in held  # the newest of the chain: the standing successor
    assert f"{b}-p1" not in held and f"{b}-p2" not in held  # superseded: out of the window
    run_czar(boundary)
    assert _status(engine, b, f"{b}-p3") == ("live", True)
    path = why(boundary, f"{b}-p3")
    assert path.held and path.nodes[-1].id == f"{b}-cache"
    assert path.in_place_of == f"{b}-p1"
    assert "([roots] successors)" in path.render()
    # The analysts' saved query finds the same holder, in place of the same replaced entry.
    (row,) = engine.run_audit("why_resident", boundary_id=b, params={"entry_id": f"{b}-p3"}).rows
    assert (row["root"], row["in_place_of"]) == (f"{b}-cache", f"{b}-p1")
    assert row["hops"] == 1  # the decision is a root; its one edge points at the replaced fact

    # The decision's lease on the first measurement runs out: the successor is no longer held.
    _work(boundary, b, LEASE)
    assert f"{b}-p3" not in reachable(boundary).reached
    assert not why(boundary, f"{b}-p3").held
    assert not engine.run_audit("why_resident", boundary_id=b, params={"entry_id": f"{b}-p3"}).rows
    run_czar(boundary)
    assert _status(engine, b, f"{b}-p3") == ("retired", False)


def test_a_successor_is_not_held_once_its_holder_is_replaced_nor_under_the_rule_off(
    engine: Any, boundary_id: str
) -> None:
    b = boundary_id
    off = _no_grace(b, ("successors = true", "successors = false"))
    boundary = engine.boundary(b, constitution=off, czar_every_commits=0)
    _commit(boundary, b, _fact(f"{b}-p1", "ev/p99", "40ms"))
    _cache_requiring(boundary, b, f"{b}-p1", policy="soft", lease_sets=100)
    _commit(boundary, b, _fact(f"{b}-p2", "ev/p99", "55ms", supersedes=f"{b}-p1"))
    # Without the rule (what version 11 decided), nothing holds the new measurement.
    assert f"{b}-p2" not in reachable(boundary).reached
    assert f"{b}-p2" in reachable(boundary, constitution=_no_grace(b)).reached
    # The decision is replaced by one that rests on nothing: the edge no longer holds anything.
    _commit(
        boundary,
        b,
        entry(
            key="cache",
            body="cache = memcached",
            supersedes=[{"entry_id": f"{b}-cache", "reason": "revised"}],
        ),
    )
    assert f"{b}-p2" not in reachable(boundary, constitution=_no_grace(b)).reached


def test_a_writer_cannot_hang_extra_entries_on_another_writers_held_edge(
    engine: Any, boundary_id: str
) -> None:
    """Another writer supersedes an entry a decision holds with two entries of one set: the gate
    executes the first supersession and records the second (its target is no longer live), so
    only the first is held in the replaced entry's place, and the receipt names only it."""
    b = boundary_id
    boundary = engine.boundary(b, constitution=_no_grace(b), czar_every_commits=0)
    _commit(boundary, b, entry(key="region", body="region = eu"))
    _commit(boundary, b, _fact(f"{b}-p1", "ev/p99", "40ms"))
    _cache_requiring(boundary, b, f"{b}-p1", policy="hard")
    decision = boundary.commit(
        proposal(
            b,
            _fact(f"{b}-z1", "ev/p99", "41ms", supersedes=f"{b}-p1"),
            _fact(f"{b}-z2", "ev/p99", "padding", supersedes=f"{b}-p1"),
            writer_id="writer-2",
            targets=["t-hostile"],
        )
    )
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    assert decision.rule_made == (
        f"{RULE_SUCCESSORS}: {b}-z1 held through the REQUIRES of {b}-cache on {b}-p1 (hard)",
    )
    held = reachable(boundary).reached
    assert f"{b}-z1" in held
    assert f"{b}-z2" not in held  # its supersession was recorded, not executed: it replaced nothing
    assert not why(boundary, f"{b}-z2").held
    assert not engine.run_audit("why_resident", boundary_id=b, params={"entry_id": f"{b}-z2"}).rows
    (row,) = engine.run_audit("why_resident", boundary_id=b, params={"entry_id": f"{b}-z1"}).rows
    assert (row["root"], row["in_place_of"]) == (f"{b}-cache", f"{b}-p1")
    run_czar(boundary)
    assert _status(engine, b, f"{b}-z1") == ("live", True)
    assert _status(engine, b, f"{b}-z2") == ("retired", False)
