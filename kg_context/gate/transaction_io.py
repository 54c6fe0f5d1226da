"""The gate transaction's reads and writes (I/O inside the locked transaction): take the
boundary's lock, load the snapshot the pure gate decides on, write the plan it returns.

A gate transaction is two statements in the common case (``open_batch``: the lock, the
submission, the boundary, the pending proposals and the state they refer to; ``write_plan``:
everything decided), so a single ``commit()`` costs the round trips of a bare write of the same
graph. ``load_snapshot`` reads the state again only when the pending sets refer to more than the
caller expected (proposals other writers left pending)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kg_context.db.executor import Record, Transaction
from kg_context.errors import StateError
from kg_context.gate.rows import Plan, nested_sets
from kg_context.gate.set_constructor import ClosedSet
from kg_context.gate.snapshot import BoundaryState, EntryState, Snapshot
from kg_context.vocabulary import STANDING_STATUSES, as_values

__all__ = [
    "OpenedBatch",
    "References",
    "load_snapshot",
    "lock_boundary",
    "open_batch",
    "references",
    "write_plan",
]


@dataclass(frozen=True, slots=True)
class References:
    """What a batch of sets refers to: the state the gate must read before deciding them."""

    entry_ids: frozenset[str] = frozenset()
    receipt_ids: frozenset[str] = frozenset()
    set_ids: frozenset[str] = frozenset()

    def covers(self, other: References) -> bool:
        return (
            other.entry_ids <= self.entry_ids
            and other.receipt_ids <= self.receipt_ids
            and other.set_ids <= self.set_ids
        )


def references(sets: list[ClosedSet]) -> References:
    """The entries (created, referenced, transitioned), adoption receipts and set ids of
    ``sets``."""
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
    return References(
        frozenset(entry_ids), frozenset(receipt_ids), frozenset(c.set_id for c in sets)
    )


def _boundary(row: Record) -> BoundaryState:
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


def lock_boundary(tx: Transaction, boundary_id: str) -> BoundaryState:
    """Take the boundary's write lock (a real write) and read it; the first thing the gate does."""
    rows = tx.run("gate/lock_boundary", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"boundary {boundary_id} does not exist; open it with engine.boundary()")
    return _boundary(rows[0])


def _snapshot(boundary: BoundaryState, state: Record) -> Snapshot:
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


@dataclass(frozen=True, slots=True)
class OpenedBatch:
    """What ``open_batch`` read under the lock: the boundary, what the record holds for the
    submitted proposals, the pending ones (ids and digests), and the state ``loaded`` refers to."""

    boundary: BoundaryState
    submitted: list[Record]
    pending: list[Record]
    loaded: References
    state: Record

    def snapshot(self, needed: References) -> Snapshot | None:
        """The snapshot of the state read with the lock, if it covers ``needed``."""
        if not self.loaded.covers(needed):
            return None
        return _snapshot(self.boundary, self.state)


def open_batch(
    tx: Transaction,
    boundary_id: str,
    *,
    proposals: list[dict[str, Any]],
    now: str,
    limit: int,
    expected: References,
) -> OpenedBatch:
    """Lock the boundary, record ``proposals`` as pending, read the boundary, the pending
    proposals (at most ``limit``) and the state ``expected`` refers to: one statement."""
    rows = tx.run(
        "gate/open_batch",
        boundary_id=boundary_id,
        proposals=proposals,
        now=now,
        limit=limit,
        entry_ids=sorted(expected.entry_ids),
        receipt_ids=sorted(expected.receipt_ids),
        set_ids=sorted(expected.set_ids),
        standing=as_values(STANDING_STATUSES),
    )
    if not rows:
        raise StateError(f"boundary {boundary_id} does not exist; open it with engine.boundary()")
    row = rows[0]
    return OpenedBatch(_boundary(row), row["submitted"], row["pending"], expected, row)


def load_snapshot(tx: Transaction, boundary: BoundaryState, sets: list[ClosedSet]) -> Snapshot:
    """The boundary and every entry, adoption receipt and earlier halt the sets refer to."""
    refs = references(sets)
    state = tx.run(
        "gate/load_state",
        boundary_id=boundary.id,
        entry_ids=sorted(refs.entry_ids),
        receipt_ids=sorted(refs.receipt_ids),
        set_ids=sorted(refs.set_ids),
        standing=as_values(STANDING_STATUSES),
    )[0]
    return _snapshot(boundary, state)


def write_plan(tx: Transaction, boundary_id: str, plan: Plan, expected_seq: int) -> None:
    """Everything the plan decided, in one statement (``cypher/gate/write_plan.cypher``)."""
    b = plan.boundary
    assert b is not None, "the gate plans the boundary row of every batch"
    advanced = tx.run(
        "gate/write_plan",
        boundary_id=boundary_id,
        sets=nested_sets(plan),
        derived=plan.derived_from,
        summarizes=plan.summarizes,
        requires=plan.requires,
        supersedes=plan.supersedes,
        halts=plan.halts,
        transitions=plan.transitions,
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
