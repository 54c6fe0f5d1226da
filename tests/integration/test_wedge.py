"""No pending proposal may block a boundary (against the real Neo4j).

A set's own entry ids are checked against each other; whatever the gate's write transaction
cannot write is rejected ``WRITE_FAILED`` with a receipt, in a transaction that records only
that, so the queue drains; a recorded payload that cannot be parsed is rejected likewise. Each
test ends with a well-formed set from another writer that commits.
"""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.batch import record_id
from kg_context.gate.pure.rows import receipt_props
from kg_context.vocabulary import ReceiptKind
from tests.factories import entry, proposal


def _counts(engine: Any, boundary_id: str) -> dict[str, Any]:
    counts: dict[str, Any] = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[
        0
    ]
    return counts


def _follow_up_commits(boundary: Any, boundary_id: str) -> None:
    """The boundary is not wedged: another writer's well-formed set commits."""
    after = boundary.commit(proposal(boundary_id, entry(key="later"), writer_id="someone-else"))
    assert after.outcome == "commit", after


def test_two_proposals_of_one_set_declaring_one_new_entry_id_are_rejected_not_wedged(
    engine: Any, boundary_id: str
) -> None:
    """Two proposals under one set id, both declaring the same new entry id, then close(): the
    boundary is not wedged (no ConstraintValidationFailed on every later commit)."""
    boundary = engine.boundary(boundary_id)
    twice = f"{boundary_id}/dup"
    boundary.submit(
        [
            proposal(boundary_id, entry(id=twice, body="one"), set_id=f"{boundary_id}/S"),
            proposal(boundary_id, entry(id=twice, body="two"), set_id=f"{boundary_id}/S"),
        ]
    )
    (decision,) = boundary.close()
    assert (decision.outcome, decision.reason_code) == ("reject", "ENTRY_ID_TAKEN")
    assert "twice" in (decision.detail or "")
    assert _counts(engine, boundary_id)["entries"] == 0
    _follow_up_commits(boundary, boundary_id)


def test_a_write_the_gate_did_not_foresee_is_rejected_write_failed_and_the_queue_drains(
    engine: Any, boundary_id: str
) -> None:
    """The general mechanism: a set whose write fails for a reason no predicate knows (here a
    receipt id someone already holds) is decided alone, and what cannot be written is rejected
    WRITE_FAILED with a rejection receipt; the sets around it are decided as usual."""
    boundary = engine.boundary(boundary_id)
    blocked_set = f"{boundary_id}/blocked"
    squatter = receipt_props(
        record_id(boundary_id, blocked_set, "commit"),
        ReceiptKind.ADOPTION,
        at="2026-01-01T00:00:00+00:00",
        boundary_id=boundary_id,
        set_id=None,
        constitution_version=boundary.state().constitution_version,
        operator_id="operator",
        reason="squatting on the receipt id the gate will write",
        keys=["x"],
        uses=1,
    )
    engine.executor.write("gate/write_adoption", boundary_id=boundary_id, receipt=squatter)
    before = boundary.commit(proposal(boundary_id, entry(key="first"), writer_id="early"))
    assert before.outcome == "commit"
    boundary.submit(
        [
            proposal(boundary_id, entry(key="a"), writer_id="w-a", set_id=f"{boundary_id}/ok-1"),
            proposal(boundary_id, entry(key="b"), writer_id="w-b", set_id=blocked_set),
            proposal(boundary_id, entry(key="c"), writer_id="w-c", set_id=f"{boundary_id}/ok-2"),
        ]
    )
    decisions = boundary.close()
    by_set = {d.proposal_ids[0]: d for d in decisions}
    assert len(decisions) == 3, decisions
    assert sorted((d.outcome, d.reason_code or "") for d in decisions) == [
        ("commit", ""),
        ("commit", ""),
        ("reject", "WRITE_FAILED"),
    ], by_set
    failed = next(d for d in decisions if d.outcome == "reject")
    assert failed.seq is None and failed.entry_ids == ()
    assert "ConstraintValidationFailed" in (failed.detail or "")
    recorded = boundary.decision(failed.proposal_ids[0])
    assert recorded is not None and (recorded.outcome, recorded.reason_code) == (
        "reject",
        "WRITE_FAILED",
    )
    assert boundary.state().seq == 3
    _follow_up_commits(boundary, boundary_id)


def test_a_recorded_payload_that_cannot_be_parsed_is_rejected_not_wedged(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    pid = f"{boundary_id}/garbled"
    engine.executor.write(
        "gate/submit_proposals",
        boundary_id=boundary_id,
        now="2026-01-01T00:00:00+00:00",
        proposals=[
            {
                "id": pid,
                "props": {
                    "id": pid,
                    "boundary_id": boundary_id,
                    "writer_id": "old-client",
                    "writer_kind": "agent",
                    "declared_set_id": None,
                    "targets": ["t"],
                    "kind": "state",
                    "payload": '{"id": "truncated',
                    "digest": "0" * 64,
                },
            }
        ],
    )
    decisions = boundary.close()
    assert [(d.outcome, d.reason_code) for d in decisions] == [("reject", "WRITE_FAILED")]
    assert decisions[0].proposal_ids == (pid,)
    assert "cannot be parsed" in (decisions[0].detail or "")
    _follow_up_commits(boundary, boundary_id)
