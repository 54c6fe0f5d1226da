"""No silent dependency on non-standing state, and the shape of the
declared graph is checked (cycles, other boundaries), against the real Neo4j."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.gate.pure.constitution import load_constitution, parse_constitution
from kg_context.residency.reachability import reachable
from kg_context.residency.recall import admit
from tests.factories import entry, halting_on_retired, proposal

DEFAULT = load_constitution()


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _fingerprint(engine: Any, boundary_id: str) -> tuple[Any, ...]:
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    entries = _entries(engine, boundary_id)
    return (
        sorted((i, e["status"], e["resident"]) for i, e in entries.items()),
        counts["seq"],
        counts["entry_edges"],
    )


def _retired(engine: Any, boundary: Any, boundary_id: str, how: str) -> str:
    """An entry moved out of standing state by an operator (retired or invalidated)."""
    old = f"{boundary_id}/old"
    assert boundary.commit(proposal(boundary_id, entry(id=old, key="old"))).outcome == "commit"
    moved = boundary.commit(
        {
            "id": f"{boundary_id}/move-old",
            "boundary_id": boundary_id,
            "writer_id": "operator",
            "writer_kind": "operator",
            "targets": ["operator"],
            "transitions": [{"entry_id": old, "to": how, "resident": False, "reason": "done"}],
        }
    )
    assert moved.outcome == "commit", moved
    return old


@pytest.mark.parametrize(
    ("how", "declared"),
    [
        ("retired", {"requires": [{"entry_id": "OLD", "policy": "hard"}]}),
        ("retired", {"requires": [{"entry_id": "OLD", "policy": "soft", "lease_sets": 5}]}),
        ("invalidated", {"derived_from": [{"entry_id": "OLD", "essential": True}]}),
    ],
    ids=["hard-requires-retired", "soft-requires-retired", "essential-derived-invalidated"],
)
def test_a_dependency_on_a_non_standing_entry_halts(
    engine: Any, boundary_id: str, how: str, declared: dict[str, Any]
) -> None:
    """REQUIRES or essential DERIVED_FROM on a retired or invalidated entry halts, so a retired
    entry never becomes silently load-bearing (under a constitution whose ``[on_dependency]``
    rule halts; the rule that rehydrates is tested in test_dependency_rules)."""
    boundary = engine.boundary(boundary_id, constitution=halting_on_retired(boundary_id))
    old = _retired(engine, boundary, boundary_id, how)
    deps = {k: [{**ref, "entry_id": old} for ref in refs] for k, refs in declared.items()}
    before = _fingerprint(engine, boundary_id)
    decision = boundary.commit(proposal(boundary_id, entry(key="new", **deps)))
    assert (decision.outcome, decision.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    assert old in (decision.detail or "") and how in (decision.detail or "")
    assert _fingerprint(engine, boundary_id) == before


def test_a_supporting_derivation_from_retired_state_is_provenance_and_commits(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    old = _retired(engine, boundary, boundary_id, "retired")
    decision = boundary.commit(
        proposal(
            boundary_id, entry(key="new", derived_from=[{"entry_id": old, "essential": False}])
        )
    )
    assert decision.outcome == "commit"


def test_recall_admission_and_promotion_still_bring_retired_state_back_through_the_gate(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    old = _retired(engine, boundary, boundary_id, "retired")
    admission = admit(boundary, [old], writer_id="planner")
    assert admission.decision.outcome == "commit", admission.decision
    copy = admission.copies[old]
    promoted = boundary.commit(
        proposal(boundary_id, entry(key="uses-it", requires=[{"entry_id": copy, "policy": "hard"}]))
    )
    assert promoted.outcome == "commit", promoted
    rows = _entries(engine, boundary_id)  # the source stands for its copy ([on_dependency])
    assert (rows[old]["status"], rows[old]["resident"]) == ("live", True)
    assert rows[copy]["status"] == "retired"


@pytest.mark.parametrize(
    "entries",
    [
        [
            entry(id="A", derived_from=[{"entry_id": "B"}]),
            entry(id="B", derived_from=[{"entry_id": "A"}]),
        ],
        [entry(id="A", derived_from=[{"entry_id": "A", "essential": False}])],
        [
            entry(id="A", requires=[{"entry_id": "B", "policy": "hard"}]),
            entry(id="B", requires=[{"entry_id": "C", "policy": "hard"}]),
            entry(id="C", requires=[{"entry_id": "A", "policy": "hard"}]),
        ],
        [entry(id="A", requires=[{"entry_id": "A", "policy": "hard"}])],
    ],
    ids=["derived-from-cycle", "self-derivation", "hard-requires-cycle", "hard-self-requires"],
)
def test_cycles_are_rejected(engine: Any, boundary_id: str, entries: list[dict[str, Any]]) -> None:
    """DERIVED_FROM cycles within one set, hard REQUIRES cycles and self-derivation are rejected."""
    boundary = engine.boundary(boundary_id)
    scoped = [_scope(e, boundary_id) for e in entries]
    decision = boundary.commit(proposal(boundary_id, *scoped))
    assert (decision.outcome, decision.reason_code) == ("reject", "DEPENDENCY_CYCLE")
    assert _entries(engine, boundary_id) == {}


def test_a_soft_requires_cycle_is_not_a_dependency_cycle(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    a, b = f"{boundary_id}/A", f"{boundary_id}/B"
    decision = boundary.commit(
        proposal(
            boundary_id,
            entry(id=a, requires=[{"entry_id": b, "policy": "soft", "lease_sets": 3}]),
            entry(id=b, requires=[{"entry_id": a, "policy": "soft", "lease_sets": 3}]),
        )
    )
    assert decision.outcome == "commit"


def _scope(data: dict[str, Any], boundary_id: str) -> dict[str, Any]:
    out = dict(data, id=f"{boundary_id}/{data['id']}")
    for field in ("derived_from", "requires"):
        if field in data:
            out[field] = [{**r, "entry_id": f"{boundary_id}/{r['entry_id']}"} for r in data[field]]
    return out


def test_a_bare_reference_is_to_the_own_boundary_and_cannot_pin_another_boundary(
    engine: Any, boundary_id: str
) -> None:
    """A bare id is an entry of the proposal's own boundary, so an edge cannot reach another
    boundary's entry and make that boundary's czar halt HARD_DEPENDENCY on its own entry."""
    theirs_id = f"{boundary_id}-theirs"
    theirs = engine.boundary(theirs_id)
    foreign = f"{theirs_id}/fact"
    assert (
        theirs.commit(
            proposal(theirs_id, entry(cls="fact", id=foreign, key="f", attributes={"source": "x"}))
        ).outcome
        == "commit"
    )
    # their goal keeps their window from emptying (the czar would keep it and warn instead)
    their_goal = proposal(theirs_id, entry(cls="goal", key="g"), targets=["g"])
    assert theirs.commit(their_goal).outcome == "commit"
    ours = engine.boundary(boundary_id)
    bare = ours.commit(
        proposal(boundary_id, entry(key="pin", requires=[{"entry_id": foreign, "policy": "hard"}]))
    )
    assert (bare.outcome, bare.reason_code) == ("reject", "UNKNOWN_DEPENDENCY")
    explicit = ours.commit(
        proposal(
            boundary_id,
            entry(
                key="pin",
                requires=[{"entry_id": foreign, "boundary_id": theirs_id, "policy": "hard"}],
            ),
        )
    )
    assert (explicit.outcome, explicit.reason_code) == ("reject", "CROSS_BOUNDARY")
    assert "constitution" in (explicit.detail or "")
    report = theirs.run_czar()
    assert [d.outcome for d in report.decisions] == ["commit"]


def test_a_cross_boundary_reference_needs_the_constitution_and_the_target_boundarys_receipt(
    engine: Any, boundary_id: str
) -> None:
    theirs_id = f"{boundary_id}-theirs"
    theirs = engine.boundary(theirs_id)
    foreign = f"{theirs_id}/api"
    assert theirs.commit(proposal(theirs_id, entry(id=foreign, key="api"))).outcome == "commit"
    text = DEFAULT.text.replace(
        f'version = "{DEFAULT.version}"', f'version = "xb-{boundary_id[-12:]}"'
    ).replace("\nallowed = []", '\nallowed = ["derived_from"]')
    ours = engine.boundary(boundary_id, constitution=parse_constitution(text))
    ref = {"entry_id": foreign, "boundary_id": theirs_id, "essential": True}

    def derive(pid: str, receipt: str | None) -> Any:
        extra = {"adoption_receipt_id": receipt} if receipt else {}
        return ours.commit(
            proposal(boundary_id, entry(key="client", derived_from=[ref]), pid=pid, **extra)
        )

    no_receipt = derive(f"{boundary_id}/p1", None)
    assert (no_receipt.outcome, no_receipt.reason_code) == ("reject", "CROSS_BOUNDARY")
    ours_receipt = engine.adopt(boundary_id, operator_id="operator", reason="x", keys=["api"])
    wrong_boundary = derive(f"{boundary_id}/p2", ours_receipt)
    assert (wrong_boundary.outcome, wrong_boundary.reason_code) == ("reject", "CROSS_BOUNDARY")
    theirs_receipt = engine.adopt(theirs_id, operator_id="operator", reason="x", keys=["api"])
    ok = derive(f"{boundary_id}/p3", theirs_receipt)
    assert ok.outcome == "commit", ok
    used_up = derive(f"{boundary_id}/p4", theirs_receipt)
    assert (used_up.outcome, used_up.reason_code) == ("reject", "CROSS_BOUNDARY")
    requires = ours.commit(
        proposal(
            boundary_id,
            entry(key="pin", requires=[{"entry_id": foreign, "boundary_id": theirs_id}]),
            adoption_receipt_id=engine.adopt(
                theirs_id, operator_id="operator", reason="x", keys=["api"]
            ),
        )
    )
    assert (requires.outcome, requires.reason_code) == ("reject", "CROSS_BOUNDARY")


def test_reachability_follows_held_edges_into_another_boundary_and_on_from_there(
    engine: Any, boundary_id: str
) -> None:
    """The walk of the held edges (gate/io/held_graph.py) reads another boundary's entries in turn:
    a root of ours holds their fact, which holds their other fact; both are reached (as the
    variable-length match it replaced reached them)."""
    theirs_id = f"{boundary_id}-theirs"
    theirs = engine.boundary(theirs_id)
    near, far = f"{theirs_id}/near", f"{theirs_id}/far"
    facts = [
        entry(cls="fact", id=far, key="far", attributes={"source": "x"}),
        entry(
            cls="fact",
            id=near,
            key="near",
            attributes={"source": "x"},
            requires=[{"entry_id": far, "policy": "hard"}],
        ),
    ]
    assert theirs.commit(proposal(theirs_id, *facts)).outcome == "commit"
    text = DEFAULT.text.replace(
        f'version = "{DEFAULT.version}"', f'version = "xr-{boundary_id[-12:]}"'
    ).replace("\nallowed = []", '\nallowed = ["requires"]')
    ours = engine.boundary(boundary_id, constitution=parse_constitution(text))
    receipt = engine.adopt(theirs_id, operator_id="operator", reason="x", keys=["near"])
    ref = {"entry_id": near, "boundary_id": theirs_id, "policy": "hard"}
    root = f"{boundary_id}/decision"
    held = ours.commit(
        proposal(
            boundary_id,
            entry(id=root, cls="decision", key="d", requires=[ref]),
            adoption_receipt_id=receipt,
        )
    )
    assert held.outcome == "commit", held
    assert {root, near, far} <= reachable(ours).reached
    assert far not in reachable(theirs).reached  # no root of theirs holds it
