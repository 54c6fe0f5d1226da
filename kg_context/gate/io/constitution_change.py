"""A constitution change inside the gate's locked transaction (I/O): record the operator's
proposal, read what the decision needs (the current constitution, the registered kinds of the
operators the text names, a recorded version of the same name), let ``evaluate_constitution``
decide, and write it: on commit the new version is recorded and becomes the boundary's.

The caller owns the transaction: ``GateStore.commit_constitution`` runs a change alone, an
operator's amendment that resolves a halt runs it and the halted set's new decision together,
so that nothing of the act commits unless all of it does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kg_context.db.executor import Transaction
from kg_context.gate.io.proposal_records import declared_operators, declared_version, submit_in
from kg_context.gate.io.transaction_io import lock_boundary, registered_writers, write_plan
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision, evaluate_constitution
from kg_context.gate.pure.index_entries import count_index_tokens
from kg_context.gate.pure.snapshot import Snapshot

__all__ = ["ConstitutionChange", "change_constitution"]


@dataclass(frozen=True, slots=True)
class ConstitutionChange:
    """The decision on a change, and the constitution it ratified (``None``: none)."""

    decision: Decision
    ratified: Constitution | None


def change_constitution(
    tx: Transaction,
    proposal: Proposal,
    *,
    gateway_id: str,
    now: str,
    constitution_for: Callable[[str], Constitution],
    count_tokens: Callable[[Sequence[str]], list[int]],
    default_lease: int,
    seal: bool = True,
) -> ConstitutionChange:
    """Record and decide one constitution change under the boundary's lock (taken first)."""
    boundary = lock_boundary(tx, proposal.boundary_id)
    recorded = submit_in(tx, proposal, now)
    if recorded is not None:
        return ConstitutionChange(recorded, None)
    current = constitution_for(boundary.constitution_version)
    expected_seq = boundary.seq
    snapshot = Snapshot(boundary=boundary)
    text = proposal.entries[0].body
    snapshot.writers = registered_writers(
        tx, boundary.id, {*declared_operators(text), proposal.writer_id}
    )
    text_version = declared_version(text)
    rows = tx.run("constitution/get", version=text_version) if text_version else []
    decision, plan, proposed = evaluate_constitution(
        proposal,
        snapshot,
        current,
        rows[0]["sha256"] if rows else None,
        now=now,
        gateway_id=gateway_id,
    )
    if proposed is not None:
        tx.run(
            "constitution/ensure",
            version=proposed.version,
            sha256=proposed.sha256,
            rules=proposed.text,
            now=now,
            by=proposal.writer_id,
            czars=list(proposed.authority.czars),
            operators=list(proposed.authority.operators),
        )
        tx.run("constitution/adopt_for_boundary", boundary_id=boundary.id, version=proposed.version)
    count_index_tokens(plan, count_tokens)
    write_plan(tx, boundary, plan, expected_seq, default_lease=default_lease, seal=seal)
    return ConstitutionChange(decision, proposed)
