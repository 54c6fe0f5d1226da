"""An approved supersession is executed or says precisely what it did
not execute, and the czar plans from one consistent snapshot without contradicting itself
(against the real Neo4j)."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution, parse_constitution
from kg_context.residency.czar import run_czar
from tests.factories import entry, proposal

DEFAULT = load_constitution()


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _resolution(engine: Any, boundary_id: str, halt_id: str) -> dict[str, Any]:
    rows = engine.executor.read("audits/resolutions", boundary_id=boundary_id)
    return next(r for r in rows if r["halt_id"] == halt_id)


def test_an_approved_cross_key_rename_executes_the_supersession(
    engine: Any, boundary_id: str
) -> None:
    """Approving a SUPERSESSION_TARGET halt of a rename executes the supersession: it is not
    recorded `executed: false` with the old entry left live and resident for good."""
    boundary = engine.boundary(boundary_id)
    old, new = f"{boundary_id}/db", f"{boundary_id}/datastore"
    assert boundary.commit(proposal(boundary_id, entry(id=old, key="db"))).outcome == "commit"
    renamed = boundary.commit(
        proposal(
            boundary_id,
            entry(id=new, key="datastore", supersedes=[{"entry_id": old, "reason": "renamed"}]),
        )
    )
    assert renamed.reason_code == "SUPERSESSION_TARGET"
    result = engine.halts.resolve(renamed.halt_id, "approve", operator_id="operator", reason="ok")
    assert result.decision is not None and result.decision.outcome == "commit"
    entries = _entries(engine, boundary_id)
    assert (entries[old]["status"], entries[old]["resident"]) == ("superseded", False)
    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [(c["old_id"], c["executed"]) for c in chain] == [(old, True)]
    assert _resolution(engine, boundary_id, renamed.halt_id)["not_executed"] == []
    assert engine.executor.read("audits/superseded_still_resident", boundary_id=boundary_id) == []


def test_an_approved_supersession_of_a_target_that_is_not_standing_says_so(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    old = f"{boundary_id}/db"
    assert boundary.commit(proposal(boundary_id, entry(id=old, key="db"))).outcome == "commit"
    assert (
        boundary.commit(
            proposal(boundary_id, entry(key="db", supersedes=[{"entry_id": old, "reason": "v2"}]))
        ).outcome
        == "commit"
    )
    late = boundary.commit(
        proposal(boundary_id, entry(key="db", supersedes=[{"entry_id": old, "reason": "v3"}]))
    )
    assert late.reason_code == "SUPERSESSION_TARGET"
    result = engine.halts.resolve(late.halt_id, "approve", operator_id="operator", reason="keep")
    assert result.decision is not None and result.decision.outcome == "commit"
    not_executed = _resolution(engine, boundary_id, late.halt_id)["not_executed"]
    assert len(not_executed) == 1 and old in not_executed[0] and "superseded" in not_executed[0]
    assert result.decision.not_executed == tuple(not_executed)


def _append_only(engine: Any, boundary_id: str) -> Any:
    text = DEFAULT.text.replace("append_only_below = 0", "append_only_below = 50").replace(
        f'version = "{DEFAULT.version}"', f'version = "ao-{boundary_id[-12:]}"'
    )
    return engine.boundary(boundary_id, task_horizon=10, constitution=parse_constitution(text))


def test_the_czar_finds_unexecuted_supersessions_whatever_the_superseder_became(
    engine: Any, boundary_id: str
) -> None:
    """`unexecuted_supersessions` finds a supersession whether or not the superseding entry is still
    standing."""
    boundary = _append_only(engine, boundary_id)
    goal = f"{boundary_id}/goal"
    old, new = f"{boundary_id}/old", f"{boundary_id}/new"
    boundary.commit(proposal(boundary_id, entry(cls="goal", id=goal, key="g")))
    boundary.commit(proposal(boundary_id, entry(id=old, key="db")))
    boundary.commit(
        proposal(
            boundary_id, entry(id=new, key="db", supersedes=[{"entry_id": old, "reason": "r"}])
        )
    )
    invalidated = boundary.invalidate(new, reason="it was wrong", writer_id="operator")
    assert invalidated.decision.outcome == "commit"
    report = run_czar(boundary)
    assert any(old in line for line in report.plan.unclear), report.plan.unclear
    assert [d.reason_code for d in report.decisions if d.outcome != "commit"] == [
        "UNCLEAR_COMPACTION"
    ]


def test_the_czar_never_proposes_to_move_an_entry_its_own_compaction_moves(
    engine: Any, boundary_id: str
) -> None:
    """The czar's unclear set never proposes to retire an entry its own compaction set of the same
    run retires (which would be rejected ILLEGAL_TRANSITION, retired -> retired)."""
    boundary = _append_only(engine, boundary_id)
    old, new = f"{boundary_id}/old", f"{boundary_id}/new"
    fact = {"attributes": {"source": "t"}}
    # a root keeps the window from emptying (the czar would keep it all and warn instead)
    boundary.commit(proposal(boundary_id, entry(cls="goal", key="g"), targets=["g"]))
    boundary.commit(proposal(boundary_id, entry(cls="fact", id=old, key="cache", **fact)))
    boundary.commit(
        proposal(
            boundary_id,
            entry(
                cls="fact",
                id=new,
                key="caching",
                supersedes=[{"entry_id": old, "reason": "renamed"}],
                **fact,
            ),
        )
    )
    report = run_czar(boundary)
    assert [d.outcome for d in report.decisions] == ["commit"], report.summary()
    assert {t.entry_id for t in report.plan.transitions} == {old, new}
    assert report.plan.unclear_transitions == []


def test_an_approved_supersession_of_another_boundarys_entry_writes_no_edge_across(
    engine: Any, boundary_id: str
) -> None:
    """Found by the property test: approving the SUPERSESSION_TARGET halt of a bare reference to
    another boundary's entry wrote a SUPERSEDES edge into that boundary. Nothing crosses; the
    resolution says what was not executed."""
    theirs_id = f"{boundary_id}-theirs"
    theirs = engine.boundary(theirs_id)
    foreign = f"{theirs_id}/db"
    assert theirs.commit(proposal(theirs_id, entry(id=foreign, key="db"))).outcome == "commit"
    boundary = engine.boundary(boundary_id)
    reach = boundary.commit(
        proposal(boundary_id, entry(key="db", supersedes=[{"entry_id": foreign, "reason": "x"}]))
    )
    assert reach.reason_code == "SUPERSESSION_TARGET"
    result = engine.halts.resolve(reach.halt_id, "approve", operator_id="operator", reason="ok")
    assert result.decision is not None and result.decision.outcome == "commit"
    assert engine.executor.read("audits/supersession_chain", boundary_id=boundary_id) == []
    assert engine.executor.read("audits/cross_boundary_edges", boundary_id=boundary_id) == []
    (line,) = _resolution(engine, boundary_id, reach.halt_id)["not_executed"]
    assert foreign in line and theirs_id in line
    assert _entries(engine, theirs_id)[foreign]["status"] == "live"
