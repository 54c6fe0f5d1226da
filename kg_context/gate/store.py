"""The gate's I/O: record proposals, and run the set constructor and the gate inside ONE locked
write transaction per batch (the single committer of a boundary, across processes and hosts).

The transaction takes the boundary's write lock first, then reads the pending proposals, builds
the closed sets, reads the state they refer to, lets the gate decide (pure logic), and writes the
plan. Everything it does is a function of what it read under the lock, so a retried transaction
(the driver retries transient failures) decides the same way, and proposals already decided are
no longer pending: nothing commits twice.
"""

from __future__ import annotations

import json
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.constitution import Constitution
from kg_context.gate.contracts import Proposal
from kg_context.gate.decision import Decision, Plan, evaluate, evaluate_constitution
from kg_context.gate.set_constructor import ClosedSet, construct_sets
from kg_context.gate.snapshot import BoundaryState, EntryState, Snapshot

__all__ = ["GateStore", "Submission", "now_iso"]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class Submission:
    proposal_id: str
    status: str  # pending | committed | halted | rejected
    set_id: str | None
    new: bool


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
        # Proposals this process submitted, by id: close() reuses them instead of re-parsing
        # the recorded payload when the recorded digest matches (the record stays the truth).
        self._submitted: OrderedDict[str, Proposal] = OrderedDict()
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
        return _submissions(records, digests, boundary_id)

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
            self._submitted[p.id] = p
            self._submitted.move_to_end(p.id)
        while len(self._submitted) > self._submitted_cap:
            self._submitted.popitem(last=False)
        rows = [_proposal_row(p) for p in {p.id: p for p in proposals}.values()]
        return rows, digests

    # -- the locked transaction ----------------------------------------------------------------
    def close(
        self, boundary_id: str, gateway_id: str, submit: Sequence[Proposal] = ()
    ) -> list[Decision]:
        """Construct and decide every pending set of the boundary, one locked batch at a time.

        ``submit``: proposals to record first, in the same transaction as the first batch.
        """
        prepared = self._prepare(boundary_id, submit) if submit else None
        decisions: list[Decision] = []
        more = True
        while more:
            batch, more = self._executor.write_tx(
                partial(
                    self._close_batch,
                    boundary_id=boundary_id,
                    gateway_id=gateway_id,
                    prepared=prepared,
                )
            )
            prepared = None
            decisions.extend(batch)
        return decisions

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
            boundary = self._lock(tx, boundary_id)
            sets = closed_sets(tx)
            decisions = self._decide(tx, boundary, sets, [], gateway_id, waive)
            if extra_writes is not None:
                extra_writes(tx, decisions)
            return decisions

        return self._executor.write_tx(work)

    def _lock(self, tx: Transaction, boundary_id: str) -> BoundaryState:
        rows = tx.run("gate/lock_boundary", boundary_id=boundary_id)
        if not rows:
            raise StateError(
                f"boundary {boundary_id} does not exist; open it with engine.boundary()"
            )
        row = rows[0]
        return BoundaryState(
            id=row["id"],
            seq=row["seq"],
            verse=row["verse"],
            constitution_version=row["constitution_version"],
            task_horizon=row["task_horizon"],
            live_count=row["live_count"],
            requires_count=row["requires_count"],
            last_set_id=row["last_set_id"],
            committed_tokens=row["committed_tokens"],
            resident_tokens=row["resident_tokens"],
        )

    def _close_batch(
        self,
        tx: Transaction,
        boundary_id: str,
        gateway_id: str,
        prepared: tuple[list[dict[str, Any]], dict[str, str]] | None,
    ) -> tuple[list[Decision], bool]:
        boundary = self._lock(tx, boundary_id)
        if prepared is not None:
            rows, digests = prepared
            records = tx.run(
                "gate/submit_proposals", boundary_id=boundary_id, proposals=rows, now=now_iso()
            )
            _submissions(records, digests, boundary_id)
        pending_rows = tx.run(
            "gate/pending_proposals", boundary_id=boundary_id, limit=self._batch_limit
        )
        if not pending_rows:
            return [], False
        pending = self._pending_proposals(tx, pending_rows)
        constitution = self._constitution_for(boundary.constitution_version)
        construction = construct_sets(pending, constitution.window.proposals)
        decisions = self._decide(
            tx, boundary, construction.sets, construction.unplaced, gateway_id, frozenset()
        )
        return decisions, len(pending_rows) >= self._batch_limit

    def _pending_proposals(self, tx: Transaction, rows: list[Record]) -> list[Proposal]:
        """The pending proposals in order: those this process submitted (same digest) from
        memory, the others parsed from their recorded payloads."""
        known: dict[str, Proposal] = {}
        for row in rows:
            proposal = self._submitted.get(row["id"])
            if proposal is not None and proposal.digest() == row["digest"]:
                known[row["id"]] = proposal
        missing = [row["id"] for row in rows if row["id"] not in known]
        if missing:
            for record in tx.run("gate/proposal_payloads", ids=missing):
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
    ) -> list[Decision]:
        constitution = self._constitution_for(boundary.constitution_version)
        expected_seq = boundary.seq  # evaluate advances the in-memory state
        snapshot = self._snapshot(tx, boundary, sets)
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
        self._write(tx, boundary.id, plan, expected_seq)
        return decisions

    def _snapshot(
        self, tx: Transaction, boundary: BoundaryState, sets: list[ClosedSet]
    ) -> Snapshot:
        entry_ids: set[str] = set()
        receipt_ids: set[str] = set()
        for closed in sets:
            for proposal in closed.proposals:
                entry_ids.update(proposal.entry_ids())
                if proposal.adoption_receipt_id:
                    receipt_ids.add(proposal.adoption_receipt_id)
                for entry in proposal.entries:
                    entry_ids.update(entry.references())
                entry_ids.update(t.entry_id for t in proposal.transitions)
        state = tx.run(
            "gate/load_state",
            entry_ids=sorted(entry_ids),
            receipt_ids=sorted(receipt_ids),
            set_ids=[c.set_id for c in sets],
            boundary_id=boundary.id,
        )[0]
        snapshot = Snapshot(boundary=boundary)
        for e in state["entries"]:
            snapshot.entries[e["id"]] = EntryState(
                id=e["id"],
                boundary_id=e["boundary_id"],
                key=e["key"],
                status=e["status"],
                entry_class=e["class"],
                writer_id=e["writer_id"],
                resident=bool(e["resident"]),
                tokens=e["tokens"],
                requires_out=e["requires_out"],
                hard_held_by=tuple(e.get("hard_held_by") or ()),
                failed_ancestors=tuple(e.get("failed_ancestors") or ()),
            )
        snapshot.adoption_receipts = set(state["adoptions"])
        for set_id in state["halted_sets"]:
            snapshot.halt_counts[set_id] = snapshot.halt_counts.get(set_id, 0) + 1
        return snapshot

    def _write(self, tx: Transaction, boundary_id: str, plan: Plan, expected_seq: int) -> None:
        """The plan's batched statements, each skipped when it has no rows."""
        if plan.sets:
            tx.run("gate/write_sets", sets=_nested_sets(plan))
        if plan.derived_from:
            tx.run("gate/write_derived_from", derived=plan.derived_from)
        if plan.summarizes:
            tx.run("gate/write_summarizes", summarizes=plan.summarizes)
        if plan.requires:
            tx.run("gate/write_requires", requires=plan.requires)
        if plan.supersedes:
            tx.run("gate/write_supersedes", supersedes=plan.supersedes)
        if plan.halts:
            tx.run("gate/write_halts", halts=plan.halts)
        if plan.transitions:
            tx.run("gate/write_transitions", transitions=plan.transitions)
        b = plan.boundary
        advanced = tx.run(
            "gate/advance_boundary",
            boundary_id=boundary_id,
            expected_seq=expected_seq,
            seq=b["seq"],
            last_set_id=b["last_set_id"],
            live_count=b["live_count"],
            requires_count=b["requires_count"],
            committed_tokens=b["committed_tokens"],
            resident_tokens=b["resident_tokens"],
        )
        if not advanced:
            # Cannot happen while the lock is held; if it ever does, nothing of this
            # transaction may commit.
            raise StateError(
                f"boundary {boundary_id} moved past seq {expected_seq} under the gate's lock"
            )

    def commit_constitution(self, proposal: Proposal, gateway_id: str) -> Decision:
        """Record and decide a constitution change in one locked transaction."""

        def work(tx: Transaction) -> Decision:
            boundary = self._lock(tx, proposal.boundary_id)
            recorded = self._submit_in(tx, proposal)
            if recorded is not None:
                return recorded
            current = self._constitution_for(boundary.constitution_version)
            expected_seq = boundary.seq
            snapshot = Snapshot(boundary=boundary)
            text_version = _declared_version(proposal.entries[0].body)
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
            self._write(tx, boundary.id, plan, expected_seq)
            return decision

        return self._executor.write_tx(work)

    def _submit_in(self, tx: Transaction, proposal: Proposal) -> Decision | None:
        """Record a proposal inside an open transaction; if it was decided before, that decision."""
        rows = tx.run(
            "gate/submit_proposals",
            boundary_id=proposal.boundary_id,
            proposals=[_proposal_row(proposal)],
            now=now_iso(),
        )
        if rows[0]["digest"] != proposal.digest():
            raise InputValidationError(
                f"proposal id {proposal.id} is already recorded with other content"
            )
        if rows[0]["status"] == "pending":
            return None
        recorded = tx.run("gate/decision_for_proposal", proposal_id=proposal.id)
        return _decision_from_record(recorded[0]) if recorded else None

    # -- reading decisions back -----------------------------------------------------------------
    def decision_for(self, proposal_id: str) -> Decision | None:
        rows = self._executor.read("gate/decision_for_proposal", proposal_id=proposal_id)
        return _decision_from_record(rows[0]) if rows else None


def _nested_sets(plan: Plan) -> list[dict[str, Any]]:
    """The plan's set rows with their writers, receipts and entries nested, for one statement."""
    by_set: dict[str, dict[str, Any]] = {
        row["id"]: {**row, "writers": [], "receipts": [], "entries": [], "proposals": []}
        for row in plan.sets
    }
    for decided in plan.proposals:
        by_set[decided["set_id"]]["proposals"].append(
            {"id": decided["id"], "status": decided["status"]}
        )
    for writer in plan.writers:
        by_set[writer["set_id"]]["writers"].append({"id": writer["id"], "kind": writer["kind"]})
    for receipt in plan.receipts:
        by_set[receipt["set_id"]]["receipts"].append(receipt["props"])
    for entry in plan.entries:
        by_set[entry["set_id"]]["entries"].append(
            {"labels": entry["labels"], "targets": entry["targets"], "props": entry["props"]}
        )
    return list(by_set.values())


def _submissions(
    records: list[Record], digests: dict[str, str], boundary_id: str
) -> list[Submission]:
    """Check what the record holds for submitted ids: a known id must carry the same content."""
    if not records and digests:
        raise InputValidationError(f"boundary {boundary_id} does not exist")
    out = []
    for record in records:
        if record["digest"] != digests[record["id"]] or record["boundary_id"] != boundary_id:
            raise InputValidationError(
                f"proposal id {record['id']} is already recorded with other content; "
                "proposal ids are idempotency keys and are never reused"
            )
        out.append(
            Submission(
                proposal_id=record["id"],
                status=record["status"],
                set_id=record["set_id"],
                new=record["status"] == "pending",
            )
        )
    return out


def _proposal_row(p: Proposal) -> dict[str, Any]:
    return {
        "id": p.id,
        "props": {
            "id": p.id,
            "boundary_id": p.boundary_id,
            "writer_id": p.writer_id,
            "writer_kind": p.writer_kind.value,
            "declared_set_id": p.set_id,
            "targets": list(p.targets),
            "kind": p.kind,
            "payload": p.payload(),
            "digest": p.digest(),
        },
    }


def _declared_version(text: str) -> str | None:
    """The ``version`` a TOML text declares, if it parses (the gate validates the rest)."""
    try:
        value = tomllib.loads(text).get("version")
    except tomllib.TOMLDecodeError:
        return None
    return value if isinstance(value, str) else None


def _decision_from_record(row: Record) -> Decision | None:
    status = row["set_status"]
    if status is None or row["receipt_id"] is None:
        return None
    outcome = {"ratified": "commit", "halted": "halt", "rejected": "reject"}.get(status)
    if outcome is None:
        return None
    return Decision(
        outcome=outcome,  # type: ignore[arg-type]
        set_id=row["set_id"],
        boundary_id=row["boundary_id"],
        seq=row["seq"],
        proposal_ids=tuple(row["proposal_ids"] or ()),
        entry_ids=tuple(sorted(row["entry_ids"])),
        receipt_id=row["receipt_id"],
        constitution_version=row["constitution_version"],
        reason_code=row["reason_code"],
        detail=row["detail"],
        suggested_amendment=row["suggested_amendment"],
        halt_id=row["halt_id"],
        replayed=True,
    )
