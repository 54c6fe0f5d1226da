"""A recall copy leaves the window after its one use, on the real Neo4j: the next work set that
commits on the boundary retires the copies whose own lease it ended, in its own transaction,
recorded as a transition the ledger seals; reads never write; a copy the set cites stays; a
compaction set, a halt or a rejection is not the use."""

from __future__ import annotations

from typing import Any

from kg_context.residency.reachability import boundary_clock
from kg_context.residency.recall import Admission, admit
from kg_context.residency.window import window
from tests.factories import entry, proposal


def _commit(boundary: Any, *entries: dict[str, Any], **kw: Any) -> Any:
    decision = boundary.commit(proposal(boundary.id, *entries, targets=[f"t-{id(entries)}"], **kw))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _entries(boundary: Any) -> dict[str, dict[str, Any]]:
    rows = boundary.executor.read("audits/boundary_entries", boundary_id=boundary.id)
    return {row["id"]: row for row in rows}


def _transitions(boundary: Any, entry_id: str) -> list[dict[str, Any]]:
    rows = boundary.executor.read("audits/transitions", boundary_id=boundary.id)
    return [dict(r) for r in rows if r["entry_id"] == entry_id]


def _resident(boundary: Any) -> set[str]:
    return {e.id for e in window(boundary).entries}


def _clean(engine: Any, boundary: Any) -> None:
    verified = boundary.verify_ledger()
    assert verified.ok, verified.first
    dirty = [(a.audit.name, a.rows) for a in engine.invariants(boundary.id) if not a.clean]
    assert dirty == []


def _superseded_pair(boundary: Any) -> tuple[str, str]:
    """A goal, a fact, a decision on it that a newer decision superseded: (old, fact)."""
    old, new, fact = (f"{boundary.id}-{n}" for n in ("old", "new", "fact"))
    _commit(boundary, entry(cls="goal", key="g", body="keep going"))
    _commit(
        boundary,
        entry(
            cls="fact",
            key="cost",
            body="Postgres costs nothing",
            id=fact,
            attributes={"source": "test"},
        ),
    )
    _commit(
        boundary,
        entry(key="db", body="Use Postgres for billing", id=old, requires=[{"entry_id": fact}]),
    )
    _commit(
        boundary,
        entry(
            key="db", body="Use Neo4j", id=new, supersedes=[{"entry_id": old, "reason": "graph"}]
        ),
    )
    return old, fact


def _recalled(boundary: Any) -> tuple[Admission, str, str]:
    old, fact = _superseded_pair(boundary)
    admission = admit(boundary, [old], writer_id="agent-1")
    assert admission.decision.outcome == "commit"
    assert set(admission.copies) == {old, fact}
    return admission, admission.copies[old], admission.copies[fact]


def test_a_copy_is_resident_for_its_read_and_leaves_when_the_next_work_set_commits(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    admission, copy, dep_copy = _recalled(boundary)
    before = boundary_clock(boundary.executor, boundary.id)
    for _ in range(3):  # reads never write: the copy stays for as many reads as it takes
        assert {copy, dep_copy} <= _resident(boundary)
        assert copy in boundary.context(4096, query="Postgres billing").text
    assert boundary_clock(boundary.executor, boundary.id) == before
    assert _transitions(boundary, copy) == []

    used = _commit(boundary, entry(cls="goal", key="g2", body="used the recall"))

    assert not {copy, dep_copy} & _resident(boundary)
    rows = _entries(boundary)
    for gone in (copy, dep_copy):
        assert (rows[gone]["status"], rows[gone]["resident"]) == ("retired", False)
        assert "Resident" not in rows[gone]["labels"]
        (moved,) = _transitions(boundary, gone)
        assert moved["set_id"] == used.set_id and moved["seq"] == used.seq
        assert (moved["from"], moved["to"], moved["resident"]) == ("live", "retired", False)
        assert moved["case"] == "ONE_USE"
        assert moved["justification"]  # the lease fields it was decided from
    # the committing set's receipt names what left with it
    receipt = next(
        r["fields"]
        for r in boundary.executor.read("audits/receipts", boundary_id=boundary.id, family=None)
        if r["id"] == used.receipt_id
    )
    assert {copy, dep_copy} <= set(receipt["changed_ids"])
    # the original stays in the record, as it was
    assert rows[next(iter(admission.copies))]["status"] == "superseded"
    _clean(engine, boundary)


def test_a_copy_the_using_set_cites_stays(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    _, copy, dep_copy = _recalled(boundary)
    holder = f"{boundary_id}-hist"
    _commit(
        boundary,
        entry(
            key="db-history",
            body="why we left Postgres",
            id=holder,
            requires=[{"entry_id": copy, "policy": "hard"}],
        ),
    )
    # required by the using set: promoted; its dependency stays held through the copied edge
    assert {copy, dep_copy, holder} <= _resident(boundary)
    assert _transitions(boundary, copy) == [] and _transitions(boundary, dep_copy) == []
    _commit(boundary, entry(cls="goal", key="g3", body="later"))
    assert {copy, holder} <= _resident(boundary)  # a hard edge holds it for good

    # a second recall, used by derivation: it does not leave under the set that derived from it
    again = admit(boundary, [f"{boundary_id}-old"], writer_id="agent-2")
    second = again.copies[f"{boundary_id}-old"]
    _commit(
        boundary,
        entry(
            cls="goal",
            key="g4",
            body="built on the recall",
            derived_from=[{"entry_id": second, "essential": False}],
        ),
    )
    assert second in _resident(boundary)
    assert _transitions(boundary, second) == []
    _clean(engine, boundary)


def test_a_compaction_set_is_not_the_use(czar_free_engine: Any, boundary_id: str) -> None:
    boundary = czar_free_engine.boundary(boundary_id)
    _, copy, dep_copy = _recalled(boundary)
    work = boundary_clock(boundary.executor, boundary.id)[1]
    report = boundary.run_czar()  # the fact nothing standing holds any more: a compaction set
    assert report.committed and any(d.outcome == "commit" for d in report.decisions)
    assert boundary_clock(boundary.executor, boundary.id)[1] == work  # the czar's sets are not work
    assert {copy, dep_copy} <= _resident(boundary)
    assert _transitions(boundary, copy) == [] and _transitions(boundary, dep_copy) == []
    used = _commit(boundary, entry(cls="goal", key="g2", body="the use"))
    assert not {copy, dep_copy} & _resident(boundary)
    assert [t["set_id"] for t in _transitions(boundary, copy)] == [used.set_id]
    _clean(czar_free_engine, boundary)


def test_a_halt_or_a_rejection_is_not_the_use(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    admission, copy, dep_copy = _recalled(boundary)
    old = next(iter(admission.copies))
    before = boundary_clock(boundary.executor, boundary.id)
    halted = boundary.commit(
        proposal(
            boundary.id, entry(key="db-2", body="on the old one", requires=[{"entry_id": old}])
        )
    )
    assert halted.outcome == "halt" and halted.reason_code == "NON_STANDING_DEPENDENCY"
    rejected = boundary.commit(
        proposal(
            boundary.id,
            entry(key="db-3", body="on nothing", requires=[{"entry_id": f"{boundary_id}-none"}]),
        )
    )
    assert rejected.outcome == "reject" and rejected.reason_code == "UNKNOWN_DEPENDENCY"
    assert boundary_clock(boundary.executor, boundary.id) == before
    assert {copy, dep_copy} <= _resident(boundary)
    assert _transitions(boundary, copy) == [] and _transitions(boundary, dep_copy) == []
    _commit(boundary, entry(cls="goal", key="g2", body="the use"))
    assert not {copy, dep_copy} & _resident(boundary)
    _clean(engine, boundary)


def test_a_recall_set_and_its_use_in_one_batch(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    old, _ = _superseded_pair(boundary)
    copy = f"{old}@recall-batch"
    recall_set = proposal(
        boundary.id,
        entry(
            cls="scratch",
            key="db",
            body="Use Postgres for billing",
            id=copy,
            derived_from=[{"entry_id": old, "essential": False}],
            expires_after=1,
        ),
        kind="recall",
        set_id=f"{boundary_id}/recall/batch",
        targets=[],
    )
    use = proposal(boundary.id, entry(cls="goal", key="g2", body="the use"), targets=["use"])
    later = proposal(boundary.id, entry(cls="goal", key="g3", body="after"), targets=["later"])
    decisions = boundary.commit_many([recall_set, use, later])
    assert [d.outcome for d in decisions] == ["commit"] * 3
    assert copy not in _resident(boundary)
    assert [t["set_id"] for t in _transitions(boundary, copy)] == [decisions[1].set_id]
    _clean(engine, boundary)
