"""The gate's I/O: record proposals, and run the set constructor and the gate inside ONE locked
write transaction per batch (the single committer of a boundary, across processes and hosts).

The transaction takes the boundary's write lock first, then records the proposals submitted with
it, reads the pending proposals, builds the closed sets, reads the state they refer to, lets the
gate decide (pure logic), and writes the plan. Everything it does is a function of what it read
under the lock, so a retried transaction (the executor retries transient failures) decides the
same way, and proposals already decided are no longer pending: nothing commits twice.

Round trips: the lock, the submission, the pending proposals and the state the submitted
proposals refer to are one statement (``open_batch``), everything decided is one more
(``write_plan``): a single ``commit()`` is one transaction of two statements, as a bare write of
the same graph is. The state is read again only when other writers' pending proposals join the
batch and refer to more.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import InputValidationError
from kg_context.gate.constitution import Constitution
from kg_context.gate.contracts import Proposal
from kg_context.gate.decision import Decision, evaluate, evaluate_constitution
from kg_context.gate.proposal_records import (
    Submission,
    decision_from_record,
    declared_version,
    proposal_row,
    submissions,
)
from kg_context.gate.set_constructor import ClosedSet, construct_sets
from kg_context.gate.snapshot import BoundaryState, Snapshot
from kg_context.gate.transaction_io import (
    References,
    load_snapshot,
    lock_boundary,
    open_batch,
    references,
    write_plan,
)
from kg_context.vocabulary import ProposalStatus

__all__ = ["GateStore", "Submission", "now_iso"]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class GateStore:
    """Proposal records and the locked commit transaction, over a ``QueryExecutor``."""

    def __init__(
        self,
        executor: QueryExecutor,
        constitution_for: Callable[[str], Constitution],
        count_tokens: Callable[[Sequence[str]], list[int]],
        *,
        batch_limit: int = 500,
    ) -> None:
        self._executor = executor
        self._constitution_for = constitution_for
        self._count_tokens = count_tokens
        self._batch_limit = batch_limit
        # Proposals this process submitted, by (boundary id, proposal id): close() reuses them
        # instead of re-parsing the recorded payload when the recorded digest matches (the
        # record stays the truth).
        self._submitted: OrderedDict[tuple[str, str], Proposal] = OrderedDict()
        self._submitted_cap = 20_000

    # -- submission --------------------------------------------------------------------------
    def submit(self, boundary_id: str, proposals: Sequence[Proposal]) -> list[Submission]:
        """Record proposals as pending (idempotent by id; an id reused differently is refused)."""
        if not proposals:
            return []
        rows, digests = self._prepare(boundary_id, proposals)
        records = self._executor.write(
            "gate/submit_proposals", boundary_id=boundary_id, proposals=rows, now=now_iso()
        )
        return submissions(records, digests, boundary_id)

    def _prepare(
        self, boundary_id: str, proposals: Sequence[Proposal]
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        digests: dict[str, str] = {}
        for proposal in proposals:
            if proposal.boundary_id != boundary_id:
                raise InputValidationError(
                    f"proposal {proposal.id} is for boundary {proposal.boundary_id}, "
                    f"not {boundary_id}"
                )
            if digests.setdefault(proposal.id, proposal.digest()) != proposal.digest():
                raise InputValidationError(f"proposal id {proposal.id} appears twice, differently")
        for p in proposals:
            self._submitted[(boundary_id, p.id)] = p
            self._submitted.move_to_end((boundary_id, p.id))
        while len(self._submitted) > self._submitted_cap:
            self._submitted.popitem(last=False)
        rows = [proposal_row(p) for p in {p.id: p for p in proposals}.values()]
        return rows, digests

    # -- the locked transaction ----------------------------------------------------------------
    def close(
        self, boundary_id: str, gateway_id: str, submit: Sequence[Proposal] = ()
    ) -> list[Decision]:
        """Construct and decide every pending set of the boundary, one locked batch at a time.

        ``submit``: proposals to record first, in the same transaction as the first batch.
        """
        return self.commit(boundary_id, gateway_id, submit)[1]

    def commit(
        self,
        boundary_id: str,
        gateway_id: str,
        submit: Sequence[Proposal] = (),
        *,
        replays_close: bool = True,
    ) -> tuple[list[Submission], list[Decision]]:
        """``close`` that also says what the record held for each submitted proposal (a
        proposal decided before is not pending: its decision is the recorded one). Without
        ``replays_close``, a submission that was entirely decided before closes nothing."""
        prepared = self._prepare(boundary_id, submit) if submit else None
        # The state the submitted proposals refer to is read with the lock, in the statement
        # that takes it: when nothing else is pending, that is all the gate reads.
        expected = references(construct_sets(list(submit), 1).sets) if submit else References()
        decisions: list[Decision] = []
        recorded: list[Submission] = []
        more = True
        while more:
            batch, more, found = self._executor.write_tx(
                partial(
                    self._close_batch,
                    boundary_id=boundary_id,
                    gateway_id=gateway_id,
                    prepared=prepared,
                    expected=expected,
                    replays_close=replays_close,
                )
            )
            prepared, expected = None, References()
            recorded = recorded or found
            decisions.extend(batch)
        return recorded, decisions

    def decide_sets(
        self,
        boundary_id: str,
        gateway_id: str,
        closed_sets: Callable[[Transaction], list[ClosedSet]],
        *,
        waive: frozenset[str] = frozenset(),
        extra_writes: Callable[[Transaction, list[Decision]], None] | None = None,
    ) -> list[Decision]:
        """Decide sets chosen inside the locked transaction (operator resolution uses this)."""

        def work(tx: Transaction) -> list[Decision]:
            boundary = lock_boundary(tx, boundary_id)
            sets = closed_sets(tx)
            decisions = self._decide(tx, boundary, sets, [], gateway_id, waive)
            if extra_writes is not None:
                extra_writes(tx, decisions)
            return decisions

        return self._executor.write_tx(work)

    def _close_batch(
        self,
        tx: Transaction,
        boundary_id: str,
        gateway_id: str,
        prepared: tuple[list[dict[str, Any]], dict[str, str]] | None,
        expected: References,
        replays_close: bool = True,
    ) -> tuple[list[Decision], bool, list[Submission]]:
        rows, digests = prepared if prepared is not None else ([], {})
        opened = open_batch(
            tx,
            boundary_id,
            proposals=rows,
            now=now_iso(),
            limit=self._batch_limit,
            expected=expected,
        )
        found = submissions(opened.submitted, digests, boundary_id) if prepared else []
        replayed = bool(found) and not any(f.new for f in found)
        if not opened.pending or (replayed and not replays_close):
            return [], False, found
        pending = self._pending_proposals(tx, boundary_id, opened.pending)
        boundary = opened.boundary
        constitution = self._constitution_for(boundary.constitution_version)
        construction = construct_sets(pending, constitution.window.proposals)
        snapshot = opened.snapshot(references(construction.sets))
        decisions = self._decide(
            tx,
            boundary,
            construction.sets,
            construction.unplaced,
            gateway_id,
            frozenset(),
            snapshot,
        )
        return decisions, len(opened.pending) >= self._batch_limit, found

    def _pending_proposals(
        self, tx: Transaction, boundary_id: str, rows: list[Record]
    ) -> list[Proposal]:
        """The pending proposals in order: those this process submitted (same digest) from
        memory, the others parsed from their recorded payloads."""
        known: dict[str, Proposal] = {}
        for row in rows:
            proposal = self._submitted.get((boundary_id, row["id"]))
            if proposal is not None and proposal.digest() == row["digest"]:
                known[row["id"]] = proposal
        missing = [row["id"] for row in rows if row["id"] not in known]
        if missing:
            records = tx.run("gate/proposal_payloads", boundary_id=boundary_id, ids=missing)
            for record in records:
                known[record["id"]] = Proposal.model_validate(json.loads(record["payload"]))
        return [known[row["id"]] for row in rows]

    def _decide(
        self,
        tx: Transaction,
        boundary: BoundaryState,
        sets: list[ClosedSet],
        unplaced: list[Proposal],
        gateway_id: str,
        waive: frozenset[str],
        snapshot: Snapshot | None = None,
    ) -> list[Decision]:
        """Decide ``sets`` on ``snapshot`` (read with the lock), or on the state read now."""
        constitution = self._constitution_for(boundary.constitution_version)
        expected_seq = boundary.seq  # evaluate advances the in-memory state
        if snapshot is None:
            snapshot = load_snapshot(tx, boundary, sets)
        decisions, plan = evaluate(
            sets,
            snapshot,
            constitution,
            self._count_tokens,
            now=now_iso(),
            gateway_id=gateway_id,
            waive=waive,
            halt_serial=lambda set_id: snapshot.halt_counts.get(set_id, 0) + 1,
            unplaced=unplaced,
        )
        write_plan(tx, boundary.id, plan, expected_seq)
        return decisions

    def commit_constitution(self, proposal: Proposal, gateway_id: str) -> Decision:
        """Record and decide a constitution change in one locked transaction."""

        def work(tx: Transaction) -> Decision:
            boundary = lock_boundary(tx, proposal.boundary_id)
            recorded = self._submit_in(tx, proposal)
            if recorded is not None:
                return recorded
            current = self._constitution_for(boundary.constitution_version)
            expected_seq = boundary.seq
            snapshot = Snapshot(boundary=boundary)
            text_version = declared_version(proposal.entries[0].body)
            rows = tx.run("constitution/get", version=text_version) if text_version else []
            decision, plan, proposed = evaluate_constitution(
                proposal,
                snapshot,
                current,
                rows[0]["sha256"] if rows else None,
                now=now_iso(),
                gateway_id=gateway_id,
            )
            if proposed is not None:
                tx.run(
                    "constitution/ensure",
                    version=proposed.version,
                    sha256=proposed.sha256,
                    rules=proposed.text,
                    now=now_iso(),
                    by=proposal.writer_id,
                )
                tx.run(
                    "constitution/adopt_for_boundary",
                    boundary_id=boundary.id,
                    version=proposed.version,
                )
            write_plan(tx, boundary.id, plan, expected_seq)
            return decision

        return self._executor.write_tx(work)

    def _submit_in(self, tx: Transaction, proposal: Proposal) -> Decision | None:
        """Record a proposal inside an open transaction; if it was decided before, that decision."""
        rows = tx.run(
            "gate/submit_proposals",
            boundary_id=proposal.boundary_id,
            proposals=[proposal_row(proposal)],
            now=now_iso(),
        )
        if rows[0]["digest"] != proposal.digest():
            raise InputValidationError(
                f"proposal id {proposal.id} is already recorded with other content"
            )
        if rows[0]["status"] == ProposalStatus.PENDING:
            return None
        recorded = tx.run(
            "gate/decision_for_proposal",
            boundary_id=proposal.boundary_id,
            proposal_id=proposal.id,
        )
        return decision_from_record(recorded[0]) if recorded else None

    # -- reading decisions back -----------------------------------------------------------------
    def decision_for(self, boundary_id: str, proposal_id: str) -> Decision | None:
        """What the record says was decided for a proposal of one boundary."""
        rows = self._executor.read(
            "gate/decision_for_proposal", boundary_id=boundary_id, proposal_id=proposal_id
        )
        return decision_from_record(rows[0]) if rows else None
