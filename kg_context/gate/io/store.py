"""The gate's I/O: record proposals, and run the set constructor and the gate inside ONE locked
write transaction per batch (the single committer of a boundary, across processes and hosts).

Everything a transaction does is a function of what it read under the lock, so a retry decides
the same way and nothing commits twice; a batch that cannot be written is isolated set by set
(``isolation``) so no pending proposal blocks the boundary.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import InputValidationError, QueryError, StateError
from kg_context.gate.io.collector import collector_held
from kg_context.gate.io.constitution_change import ConstitutionChange, change_constitution
from kg_context.gate.io.isolation import (
    IsolationSteps,
    Pending,
    is_transient,
    isolate,
    write_failed_plan,
)
from kg_context.gate.io.proposal_records import (
    Submission,
    parse_pending,
    proposal_row,
    submissions,
)
from kg_context.gate.io.transaction_io import (
    SnapshotInputs,
    SnapshotRead,
    claimed_entries,
    load_claims,
    load_snapshot,
    lock_boundary,
    open_batch,
    write_plan,
)
from kg_context.gate.pure.authority import refuse_reserved_id
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision, entry_tokens, evaluate
from kg_context.gate.pure.set_constructor import ClosedSet, construct_sets, implicit_set_id
from kg_context.gate.pure.snapshot import LockedBoundary, Snapshot

__all__ = ["GateStore", "Submission", "now_iso"]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class _Seen:
    """A boundary as this store last left it under its lock: its constitution version, seq and
    the recall copies awaiting their one use (a guess for the next transaction, never a fact:
    ``_Ahead``)."""

    version: str
    seq: int
    one_use_pending: list[str]


@dataclass(frozen=True, slots=True)
class _Ahead:
    """The sets submitted proposals close into when they are all the boundary has pending, and
    the parameters of their snapshot's reads, worked out before the transaction from the
    boundary as last seen (``_Seen``): ``gate/open_batch`` then reads that snapshot right after
    taking the lock, in the same statement. Only a guess: the transaction uses these sets only if
    ``open_batch`` read under the lock the same constitution version and exactly these proposals
    (ids and digests, in order) pending, and the snapshot only if the parameters it works out
    from what it read under the lock are the very same (``load_snapshot``). ``tokens``: the new
    entries' tokens, counted while ``open_batch`` runs."""

    version: str
    pending_ids: list[tuple[str, str]]
    pending: Pending
    inputs: SnapshotInputs
    params: dict[str, Any]
    tokens: dict[str, int] = field(default_factory=dict)

    def holds(self, boundary: LockedBoundary, pending_rows: list[Record]) -> bool:
        return (
            boundary.constitution_version == self.version
            and [(row["id"], row["digest"]) for row in pending_rows] == self.pending_ids
        )


def _cut_at_claims(pending: Pending) -> Pending:
    """A czar set whose cases the gate checks against the graph is decided first in its
    transaction: the sets before it are decided now, it and the rest in the next batch."""
    cut = next((i for i, c in enumerate(pending.sets) if i and claimed_entries(c)), None)
    if cut is None:
        return pending
    return Pending(pending.sets[:cut], pending.unplaced, pending.unreadable, True)


def _unplaced_ids(pending: Pending) -> tuple[str, ...]:
    """The implicit set ids of the proposals the set constructor could not place."""
    return tuple(implicit_set_id([p.id]) for p in pending.unplaced)


class GateStore:
    """Proposal records and the locked commit transaction, over a ``QueryExecutor``."""

    def __init__(
        self,
        executor: QueryExecutor,
        constitution_for: Callable[[str], Constitution],
        count_tokens: Callable[[Sequence[str]], list[int]],
        *,
        batch_limit: int = 500,
        default_lease_sets: int = 100,
        recall_max_entries: int = 16,
        recall_max_depth: int = 2,
        seal_ledger: bool = True,
        on_czar_due: Callable[[str], None] | None = None,
    ) -> None:
        self._executor = executor
        self._constitution_for = constitution_for
        self._count_tokens = count_tokens
        self._batch_limit = batch_limit
        self._read_limit = batch_limit + 1  # pending read one past a batch: is more pending?
        # The lease of a soft edge that declared none (the czar's reachability uses the same):
        # the gate re-checks the czar's cases with it.
        self._default_lease = default_lease_sets
        # What recall rebuilds whole (a reconstructible edge into such an entry holds nothing).
        self._recall_caps = (recall_max_entries, recall_max_depth)
        # Proposals this process submitted, by (boundary id, proposal id): close() reuses them
        # instead of re-parsing the recorded payload when the recorded digest matches (the
        # record stays the truth).
        self._submitted: OrderedDict[tuple[str, str], Proposal] = OrderedDict()
        self._submitted_cap = 20_000
        self._seal_ledger = seal_ledger
        self._write = partial(write_plan, default_lease=default_lease_sets, seal=seal_ledger)
        self._on_czar_due = on_czar_due  # after a closing transaction left the cadence due
        self._seen: OrderedDict[str, _Seen] = OrderedDict()  # each boundary as last left (_Ahead)

    @property
    def constitution_for(self) -> Callable[[str], Constitution]:
        """A recorded constitution by version (the registry the store decides under)."""
        return self._constitution_for

    # -- submission --------------------------------------------------------------------------
    def submit(self, boundary_id: str, proposals: Sequence[Proposal]) -> list[Submission]:
        """Record proposals as pending (idempotent by id; an id reused differently is refused)."""
        if not proposals:
            return []
        recorded = self._record_prepared(boundary_id, self._prepare(boundary_id, proposals))
        self._forget(boundary_id, [s.proposal_id for s in recorded if not s.new])
        return recorded

    def _forget(self, boundary_id: str, proposal_ids: Sequence[str]) -> None:
        """Drop decided proposals from memory: they are only needed between submit and close
        (kept, a long-running process's memory grew with every set it committed)."""
        for proposal_id in proposal_ids:
            self._submitted.pop((boundary_id, proposal_id), None)

    def _prepare(
        self, boundary_id: str, proposals: Sequence[Proposal]
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        digests: dict[str, str] = {}
        for proposal in proposals:
            if proposal.boundary_id != boundary_id:
                raise InputValidationError(
                    f"proposal {proposal.id} is for boundary {proposal.boundary_id}, "
                    f"not {boundary_id}",
                    boundary_id=boundary_id,
                    proposal_id=proposal.id,
                    writer_id=proposal.writer_id,
                )
            if digests.setdefault(proposal.id, proposal.digest()) != proposal.digest():
                raise InputValidationError(
                    f"proposal id {proposal.id} appears twice, differently",
                    boundary_id=boundary_id,
                    proposal_id=proposal.id,
                    writer_id=proposal.writer_id,
                )
            refuse_reserved_id(proposal)
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

        ``submit``: proposals to record first, in the same transaction as the first batch. A
        batch whose write fails with a non-transient error is isolated (``isolation``).
        """
        return self._close(boundary_id, gateway_id, submit, replays_close=True)[1]

    def commit(
        self, boundary_id: str, gateway_id: str, proposal: Proposal
    ) -> tuple[Submission, list[Decision]]:
        """Record one proposal and, while it is pending, close as ``close`` does, in the same
        locked transaction: what the record held for it, and the decisions. A proposal decided
        before closes nothing (its submission says so)."""
        found, decisions = self._close(boundary_id, gateway_id, [proposal], replays_close=False)
        return found[0], decisions

    def _close(
        self,
        boundary_id: str,
        gateway_id: str,
        submit: Sequence[Proposal],
        *,
        replays_close: bool,
    ) -> tuple[list[Submission], list[Decision]]:
        with collector_held():  # a batch's objects live until it is written (``collector``)
            return self._close_held(boundary_id, gateway_id, submit, replays_close)

    def _close_held(
        self,
        boundary_id: str,
        gateway_id: str,
        submit: Sequence[Proposal],
        replays_close: bool,
    ) -> tuple[list[Submission], list[Decision]]:
        prepared = self._prepare(boundary_id, submit) if submit else None
        ahead = self._ahead(boundary_id, submit) if submit else None
        decisions: list[Decision] = []
        found: list[Submission] = []
        more = True
        while more:
            try:
                batch, more, recorded, due = self._executor.write_tx(
                    partial(
                        self._close_batch,
                        boundary_id=boundary_id,
                        gateway_id=gateway_id,
                        prepared=prepared,
                        replays_close=replays_close,
                        ahead=ahead,
                    )
                )
            except QueryError as failed:
                if is_transient(failed):
                    raise
                recorded, due = [], False
                if prepared is not None:  # the failed transaction recorded nothing
                    recorded = self._record_prepared(boundary_id, prepared)
                steps = self._isolation_steps(boundary_id, gateway_id)
                batch, more = isolate(self._executor, steps)
            prepared, ahead = None, None
            if due and self._on_czar_due is not None:  # committed: the czar runs beside us
                self._on_czar_due(boundary_id)
            found = found or recorded
            decisions.extend(batch)
            self._forget(boundary_id, [pid for d in batch for pid in d.proposal_ids])
        self._forget(boundary_id, [s.proposal_id for s in found if not s.new])
        return found, decisions

    def _ahead(self, boundary_id: str, submit: Sequence[Proposal]) -> _Ahead | None:
        """``submit`` closed into sets before the transaction, with their snapshot's parameters
        (``_Ahead``), when the boundary was seen before and no set cites an adoption receipt (the
        snapshot's read locks a cited receipt: only the read the decision uses may)."""
        seen = self._seen.get(boundary_id)
        proposals = list({p.id: p for p in submit}.values())
        if seen is None or len(proposals) > self._batch_limit:
            return None
        constitution = self._constitution_for(seen.version)
        construction = construct_sets(proposals, constitution.window.proposals)
        pending = _cut_at_claims(Pending(construction.sets, construction.unplaced, [], False))
        inputs = SnapshotInputs(
            boundary_id,
            seen.seq,
            seen.one_use_pending,
            pending.sets,
            constitution,
            self._default_lease,
            _unplaced_ids(pending),
        )
        params = inputs.params()
        if params["receipt_ids"]:
            return None
        pending_ids = [(p.id, p.digest()) for p in proposals]
        return _Ahead(seen.version, pending_ids, pending, inputs, params)

    def _record_prepared(
        self, boundary_id: str, prepared: tuple[list[dict[str, Any]], dict[str, str]]
    ) -> list[Submission]:
        rows, digests = prepared
        records = self._executor.write(
            "gate/submit_proposals", boundary_id=boundary_id, proposals=rows, now=now_iso()
        )
        return submissions(records, digests, boundary_id)

    def decide_sets(
        self,
        boundary_id: str,
        gateway_id: str,
        closed_sets: Callable[[Transaction], list[ClosedSet]],
        *,
        waive: frozenset[str] = frozenset(),
        extra_writes: Callable[[Transaction, list[Decision]], None] | None = None,
    ) -> list[Decision]:
        """Decide again sets chosen inside the locked transaction (operator resolution)."""

        def work(tx: Transaction) -> list[Decision]:
            return self.redecide_in(tx, boundary_id, gateway_id, closed_sets, waive, extra_writes)

        return self._executor.write_tx(work)

    def redecide_in(
        self,
        tx: Transaction,
        boundary_id: str,
        gateway_id: str,
        closed_sets: Callable[[Transaction], list[ClosedSet]],
        waive: frozenset[str],
        extra_writes: Callable[[Transaction, list[Decision]], None] | None,
        under: Constitution | None = None,
    ) -> list[Decision]:
        """``decide_sets`` inside the caller's transaction; ``under``: the constitution when
        that transaction ratified it (the registry reads committed versions only)."""
        boundary = lock_boundary(tx, boundary_id)
        pending = Pending(closed_sets(tx), [], [], False)
        decisions = self._decide(
            tx, boundary, pending, gateway_id, waive, redecide=True, under=under
        )
        if extra_writes is not None:
            extra_writes(tx, decisions)
        return decisions

    def _pending(self, tx: Transaction, boundary: LockedBoundary) -> Pending:
        """The boundary's pending proposals (up to the batch limit), closed into sets."""
        rows = tx.run("gate/pending_proposals", boundary_id=boundary.id, limit=self._read_limit)
        return self._closed_sets(tx, boundary, rows)

    def _closed_sets(
        self, tx: Transaction, boundary: LockedBoundary, rows: list[Record]
    ) -> Pending:
        """Pending proposals (ids and digests, in submission order), closed into sets."""
        more = len(rows) > self._batch_limit
        rows = rows[: self._batch_limit]
        if not rows:
            return Pending([], [], [], False)
        proposals, unreadable = parse_pending(tx, boundary.id, rows, self._submitted)
        constitution = self._constitution_for(boundary.constitution_version)
        construction = construct_sets(proposals, constitution.window.proposals)
        return Pending(
            construction.sets,
            construction.unplaced,
            unreadable,
            more,
        )

    def _close_batch(
        self,
        tx: Transaction,
        boundary_id: str,
        gateway_id: str,
        prepared: tuple[list[dict[str, Any]], dict[str, str]] | None,
        replays_close: bool,
        ahead: _Ahead | None = None,
    ) -> tuple[list[Decision], bool, list[Submission], bool]:
        rows, digests = prepared if prepared is not None else ([], {})
        opened = open_batch(
            tx,
            boundary_id,
            proposals=rows,
            now=now_iso(),
            limit=self._read_limit,
            snapshot=None if ahead is None else ahead.params,
            inputs=None if ahead is None else ahead.inputs,
            meanwhile=None if ahead is None else partial(self._count_ahead, ahead),
        )
        if opened is None:  # no such boundary: nothing was written
            if not replays_close:  # commit() says what submit() says
                submissions([], digests, boundary_id)
            raise StateError(
                f"boundary {boundary_id} does not exist; open it with engine.boundary()",
                boundary_id=boundary_id,
            )
        found = submissions(opened.submitted, digests, boundary_id) if prepared else []
        if prepared is not None and not replays_close and not any(s.new for s in found):
            return [], False, found, False  # decided before: the record has its decision
        boundary = opened.boundary
        if ahead is not None and ahead.holds(boundary, opened.pending):
            pending, read, tokens = ahead.pending, opened.snapshot, ahead.tokens
        else:
            pending = _cut_at_claims(self._closed_sets(tx, boundary, opened.pending))
            read, tokens = None, None
        decisions = self._decide(
            tx, boundary, pending, gateway_id, frozenset(), read=read, tokens=tokens
        )
        return decisions, pending.more, found, boundary.czar_due(boundary.seq)

    def _count_ahead(self, ahead: _Ahead) -> None:
        ahead.tokens.update(entry_tokens(ahead.pending.sets, self._count_tokens))

    def _decide(
        self,
        tx: Transaction,
        boundary: LockedBoundary,
        pending: Pending,
        gateway_id: str,
        waive: frozenset[str],
        *,
        redecide: bool = False,
        under: Constitution | None = None,
        read: SnapshotRead | None = None,
        tokens: dict[str, int] | None = None,
    ) -> list[Decision]:
        """``read``: the snapshot ``open_batch`` read under the lock for guessed parameters;
        ``tokens``: the new entries' tokens, counted already."""
        if pending.empty:
            return []
        constitution = under or self._constitution_for(boundary.constitution_version)
        expected_seq = boundary.seq  # evaluate advances the in-memory state
        sets = pending.sets
        counted: dict[str, int] = {}  # counted while the server reads the snapshot
        snapshot = load_snapshot(
            tx,
            boundary,
            sets,
            constitution,
            default_lease=self._default_lease,
            extra_set_ids=_unplaced_ids(pending),
            meanwhile=lambda: counted.update(
                tokens if tokens is not None else entry_tokens(sets, self._count_tokens)
            ),
            read=read,
        )
        if sets:
            claimed = claimed_entries(sets[0])
            load_claims(
                tx,
                snapshot,
                constitution,
                claimed,
                default_lease=self._default_lease,
                recall_max_entries=self._recall_caps[0],
                recall_max_depth=self._recall_caps[1],
            )
        decisions, plan = evaluate(
            sets,
            snapshot,
            constitution,
            self._count_tokens,
            now=now_iso(),
            gateway_id=gateway_id,
            waive=waive,
            halt_serial=lambda set_id: snapshot.halt_counts.get(set_id, 0) + 1,
            unplaced=pending.unplaced,
            unreadable=pending.unreadable,
            redecide=redecide,
            tokens=counted,
        )
        self._write(tx, boundary, plan, expected_seq)
        if plan.boundary is not None:
            self._seen[boundary.id] = _Seen(
                boundary.constitution_version,
                plan.boundary["seq"],
                list(plan.boundary["one_use_pending"]),
            )
            self._seen.move_to_end(boundary.id)
            while len(self._seen) > self._submitted_cap:
                self._seen.popitem(last=False)
        return decisions

    def _isolation_steps(self, boundary_id: str, gateway_id: str) -> IsolationSteps:
        """What ``isolate`` runs, each in a transaction of its own."""

        def pending(tx: Transaction) -> Pending:
            return self._pending(tx, lock_boundary(tx, boundary_id))

        def decide(tx: Transaction, group: Pending) -> list[Decision]:
            boundary = lock_boundary(tx, boundary_id)
            current = self._still_pending(tx, boundary_id, group)
            return self._decide(tx, boundary, current, gateway_id, frozenset())

        def record_failed(tx: Transaction, group: Pending, problem: str) -> list[Decision]:
            boundary = lock_boundary(tx, boundary_id)
            current = self._still_pending(tx, boundary_id, group)
            constitution = self._constitution_for(boundary.constitution_version)
            decisions, plan = write_failed_plan(
                current,
                Snapshot(boundary=boundary),
                constitution,
                problem,
                now=now_iso(),
                gateway_id=gateway_id,
            )
            self._write(tx, boundary, plan, boundary.seq)
            return decisions

        return IsolationSteps(pending, decide, record_failed)

    def _still_pending(self, tx: Transaction, boundary_id: str, group: Pending) -> Pending:
        """The part of ``group`` still pending (another process may have decided some)."""
        rows = tx.run("gate/pending_proposals", boundary_id=boundary_id, limit=self._batch_limit)
        ids = {row["id"] for row in rows}
        return group.restricted_to(ids)

    def commit_constitution(self, proposal: Proposal, gateway_id: str) -> Decision:
        """Record and decide a constitution change in one locked transaction."""
        return self._executor.write_tx(
            lambda tx: self.change_constitution_in(tx, proposal, gateway_id).decision
        )

    def change_constitution_in(
        self, tx: Transaction, proposal: Proposal, gateway_id: str
    ) -> ConstitutionChange:
        """``commit_constitution`` inside the caller's transaction (an operator's amendment that
        resolves a halt decides the halted set in the same one: ``redecide_in``)."""
        return change_constitution(
            tx,
            proposal,
            gateway_id=gateway_id,
            now=now_iso(),
            constitution_for=self._constitution_for,
            count_tokens=self._count_tokens,
            default_lease=self._default_lease,
            seal=self._seal_ledger,
        )
