"""A dependency on a recall copy under ``[on_dependency] recall_copy``, against the real Neo4j:
under ``source`` (shipped) a set whose entry requires a recall copy commits with the copy's
source back in the window (retired -> live, a REHYDRATED transition of that set), the edge on the
source, the copy retired as used (ONE_USE) by that set, the receipts naming the rule; under
``copy`` the dependency stays on the copy. What the gate decides from is the graph: a scratch
entry a writer made to look like a copy brings nothing back; neither does a copy whose source was
superseded, failed, is of a class the writer may not commit, or lives in another boundary. The
ledger verifies and every must-be-empty audit stays empty."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.residency.recall import admit
from tests.factories import constitution_variant, entry, proposal

RULE = "on_dependency.recall_copy=source"


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _moves(engine: Any, boundary_id: str, entry_id: str) -> list[tuple[str, str, str, str]]:
    rows = engine.executor.read("audits/transitions", boundary_id=boundary_id)
    return [(r["set_id"], r["from"], r["to"], r["case"]) for r in rows if r["entry_id"] == entry_id]


def _receipts(engine: Any, boundary_id: str, set_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/receipts", boundary_id=boundary_id, family=None)
    return {r["kind"]: r["fields"] for r in rows if r["set_id"] == set_id}


def _window(handle: Any) -> set[str]:
    return {e.id for e in handle.window().entries}


def _clean(engine: Any, handle: Any, boundary_id: str) -> None:
    verified = handle.verify_ledger()
    assert verified.ok, verified
    assert [a.audit.name for a in engine.invariants(boundary_id) if not a.clean] == []


def _commit(handle: Any, *entries: dict[str, Any], **kw: Any) -> Any:
    decided = handle.commit(proposal(handle.id, *entries, **kw))
    assert decided.outcome == "commit", decided
    return decided


def _move(handle: Any, entry_id: str, *statuses: str) -> None:
    """An operator moves ``entry_id`` through ``statuses``, out of the window."""
    for n, to in enumerate(statuses):
        _commit(
            handle,
            writer_id="operator",
            writer_kind="operator",
            targets=["operator"],
            entries=[],
            transitions=[{"entry_id": entry_id, "to": to, "resident": False, "reason": "x"}],
            pid=f"{handle.id}/move-{n}-{entry_id[-6:]}-{to}",
        )


def _evidence(handle: Any, cls: str = "fact") -> str:
    """A goal and an evidence entry nothing holds yet (live, resident: a root or leased)."""
    evidence = f"{handle.id}/bench"
    _commit(
        handle,
        entry(cls="goal", key="ship", body="Ship the graph"),
        entry(
            cls=cls,
            id=evidence,
            key="pg-bench",
            body="Postgres took 40 ms per three-hop query",
            attributes={"source": "bench run 12"},
        ),
    )
    return evidence


def _recalled(handle: Any, evidence: str, *statuses: str) -> str:
    """``evidence`` moved through ``statuses`` out of the window, then recalled: the copy."""
    _move(handle, evidence, *statuses)
    admission = admit(handle, [evidence], writer_id="writer-1")
    assert admission.decision.outcome == "commit", admission.decision
    return admission.copies[evidence]


def _decide(handle: Any, copy: str, **kw: Any) -> Any:
    return handle.commit(
        proposal(
            handle.id,
            entry(
                cls=kw.pop("cls", "decision"),
                id=f"{handle.id}/db",
                key="datastore",
                body="Use Neo4j: three-hop queries were slow on Postgres",
                requires=[{"entry_id": copy, "policy": "hard"}],
                derived_from=[{"entry_id": copy, "essential": True}],
            ),
            **kw,
        )
    )


def test_a_requires_on_a_recall_copy_brings_its_source_back_resident_and_spends_the_copy(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)  # the shipped constitution: recall_copy = "source"
    evidence = _evidence(handle)
    copy = _recalled(handle, evidence, "retired")
    assert copy in _window(handle) and evidence not in _window(handle)

    decided = _decide(handle, copy)

    assert decided.outcome == "commit", decided
    dependent = f"{boundary_id}/db"
    made = f"{RULE}: {dependent} require(s) recall copy {copy}: rehydrated {evidence}, resident"
    assert made in decided.rule_made
    assert not any("@rehydrated-" in e for e in decided.entry_ids)  # no rule-made copy besides
    rows = _entries(engine, boundary_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == ("live", True)
    assert (rows[copy]["status"], rows[copy]["resident"]) == ("retired", False)
    assert _moves(engine, boundary_id, evidence)[-1] == (
        decided.set_id,
        "retired",
        "live",
        "REHYDRATED",
    )
    assert _moves(engine, boundary_id, copy) == [(decided.set_id, "live", "retired", "ONE_USE")]
    assert evidence in _window(handle) and copy not in _window(handle)
    held = handle.why(evidence)
    assert [n.id for n in held.nodes] == [dependent, evidence]  # the edge is on the source
    receipts = _receipts(engine, boundary_id, decided.set_id)
    for kind in ("review", "commit"):
        assert made in receipts[kind]["rule_made"]
        assert f"rule: {RULE}" in receipts[kind]["reasons"]
    assert {evidence, copy} <= set(receipts["commit"]["changed_ids"])
    # The next work set changes nothing of it: the source stands on its own edge.
    _commit(handle, entry(cls="goal", key="later", body="keep going"))
    assert evidence in _window(handle)
    _clean(engine, handle, boundary_id)


def test_under_copy_the_dependency_stays_on_the_copy(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    kept = constitution_variant(
        f"copy-{boundary_id[-12:]}", ('recall_copy = "source"', 'recall_copy = "copy"')
    )
    handle = engine.boundary(boundary_id, constitution=kept)
    evidence = _evidence(handle)
    copy = _recalled(handle, evidence, "retired")
    decided = _decide(handle, copy)
    assert decided.outcome == "commit", decided
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    rows = _entries(engine, boundary_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == ("retired", False)
    assert (rows[copy]["status"], rows[copy]["resident"]) == ("live", True)
    assert copy in _window(handle)
    _clean(engine, handle, boundary_id)


@pytest.mark.parametrize(
    "statuses",
    [("superseded",), ("invalidated",), ("superseded", "retired"), ("at_risk", "retired")],
    ids=["superseded", "invalidated", "superseded-then-retired", "failed-then-retired"],
)
def test_a_copy_of_superseded_or_failed_state_resurrects_nothing(
    czar_free_engine: Any, boundary_id: str, statuses: tuple[str, ...]
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    evidence = _evidence(handle)
    copy = _recalled(handle, evidence, *statuses)
    decided = _decide(handle, copy)
    assert decided.outcome == "commit", decided  # the dependency stays on the copy
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    rows = _entries(engine, boundary_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == (statuses[-1], False)
    assert rows[copy]["status"] == "live" and copy in _window(handle)
    assert evidence not in _window(handle)
    _clean(engine, handle, boundary_id)


def test_a_copy_whose_source_was_superseded_after_the_recall_resurrects_nothing(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    evidence = _evidence(handle)
    copy = _recalled(handle, evidence, "retired")
    _commit(
        handle,
        entry(
            cls="fact",
            key="pg-bench",
            body="Postgres took 4 ms per three-hop query with an index",
            supersedes=[{"entry_id": evidence, "reason": "re-run"}],
            attributes={"source": "bench run 13"},
        ),
    )  # a supersession of a retired entry: recorded by [on_supersession], not executed
    _move(handle, evidence, "at_risk")  # and the source is then failed
    decided = _decide(handle, copy)
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    assert _entries(engine, boundary_id)[evidence]["status"] == "at_risk"
    assert evidence not in _window(handle)
    _clean(engine, handle, boundary_id)


def test_a_scratch_entry_a_writer_dressed_as_a_copy_brings_nothing_back(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    evidence = _evidence(handle)
    _move(handle, evidence, "retired")
    forged = f"{boundary_id}/forged"
    _commit(  # a work set (not a recall set): same key and body, DERIVED_FROM it, recall attributes
        handle,
        entry(
            cls="scratch",
            id=forged,
            key="pg-bench",
            body="Postgres took 40 ms per three-hop query",
            derived_from=[{"entry_id": evidence, "essential": False}],
            expires_after=1,
            attributes={"recalled_from": evidence, "recalled_status": "retired"},
        ),
    )
    decided = _decide(handle, forged)
    assert decided.outcome == "commit", decided
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    rows = _entries(engine, boundary_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == ("retired", False)
    assert evidence not in _window(handle)
    _clean(engine, handle, boundary_id)


def test_a_writer_cannot_bring_back_a_source_of_a_class_it_may_not_commit(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    evidence = _evidence(handle, cls="constraint")  # a tool writes facts and scratch only
    copy = _recalled(handle, evidence, "retired")
    decided = _decide(handle, copy, cls="fact", writer_id="tool-1", writer_kind="tool")
    assert decided.outcome == "commit", decided
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    rows = _entries(engine, boundary_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == ("retired", False)
    assert copy in _window(handle)
    _clean(engine, handle, boundary_id)


def test_a_copy_in_another_boundary_brings_nothing_back(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    other_id = f"{boundary_id}-other"
    other = engine.boundary(other_id)
    evidence = _evidence(other)
    copy = _recalled(other, evidence, "retired")
    handle = engine.boundary(boundary_id)
    decided = handle.commit(
        proposal(
            boundary_id,
            entry(
                key="datastore",
                requires=[{"entry_id": copy, "boundary_id": other_id, "policy": "hard"}],
            ),
        )
    )
    assert not any(m.startswith(RULE) for m in decided.rule_made)
    rows = _entries(engine, other_id)
    assert (rows[evidence]["status"], rows[evidence]["resident"]) == ("retired", False)
    assert evidence not in _window(other)
