"""The gate transaction's reads and writes (I/O inside the locked transaction): take the
boundary's lock, load the snapshot the pure gate decides on, write the plan it returns."""

from __future__ import annotations

from kg_context.db.executor import Transaction
from kg_context.errors import StateError
from kg_context.gate.rows import Plan, nested_sets
from kg_context.gate.set_constructor import ClosedSet
from kg_context.gate.snapshot import BoundaryState, EntryState, Snapshot
from kg_context.vocabulary import STANDING_STATUSES, as_values

__all__ = ["load_snapshot", "lock_boundary", "write_plan"]


def lock_boundary(tx: Transaction, boundary_id: str) -> BoundaryState:
    """Take the boundary's write lock (a real write) and read it; the first thing the gate does."""
    rows = tx.run("gate/lock_boundary", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"boundary {boundary_id} does not exist; open it with engine.boundary()")
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


def load_snapshot(tx: Transaction, boundary: BoundaryState, sets: list[ClosedSet]) -> Snapshot:
    """The boundary and every entry, adoption receipt and earlier halt the sets refer to."""
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
        standing=as_values(STANDING_STATUSES),
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


def write_plan(tx: Transaction, boundary_id: str, plan: Plan, expected_seq: int) -> None:
    """The plan's batched statements, each skipped when it has no rows."""
    b_id = boundary_id  # every statement looks its nodes up by (boundary_id, id)
    if plan.sets:
        tx.run("gate/write_sets", boundary_id=b_id, sets=nested_sets(plan))
    if plan.derived_from:
        tx.run("gate/write_derived_from", boundary_id=b_id, derived=plan.derived_from)
    if plan.summarizes:
        tx.run("gate/write_summarizes", boundary_id=b_id, summarizes=plan.summarizes)
    if plan.requires:
        tx.run("gate/write_requires", boundary_id=b_id, requires=plan.requires)
    if plan.supersedes:
        tx.run("gate/write_supersedes", boundary_id=b_id, supersedes=plan.supersedes)
    if plan.halts:
        tx.run("gate/write_halts", boundary_id=b_id, halts=plan.halts)
    if plan.transitions:
        tx.run("gate/write_transitions", boundary_id=b_id, transitions=plan.transitions)
    b = plan.boundary
    assert b is not None, "the gate plans the boundary row of every batch"
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
