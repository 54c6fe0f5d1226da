"""The gate transaction's reads and writes (I/O inside the locked transaction): take the
boundary's lock, load the snapshot the pure gate decides on, write the plan it returns.

A closing transaction is ``open_batch`` (the lock, the submission, the boundary, the pending
proposals), ``load_snapshot`` (everything the sets refer to) and ``write_plan`` (everything
decided, the boundary advanced, and for a plan of a few sets its sealed receipts, halts and
ledger head; a larger plan's follow in ``write_sealed``); a czar set whose cases the gate checks
against the graph adds ``czar_claims``. When the proposals a transaction submits are all the
boundary turns out to have pending (a ``commit()``), ``open_batch`` reads their snapshot too,
right after the lock, for parameters guessed before the transaction and used only if they prove
the very ones the gate works out under the lock: then a single ``commit()`` is one transaction
of two statements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from kg_context.db.executor import Record, Transaction
from kg_context.db.reader import TransactionReader
from kg_context.errors import StateError
from kg_context.gate.io.held_graph import walk_held
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.copy_sources import copy_reference_ids
from kg_context.gate.pure.ledger import LedgerHead
from kg_context.gate.pure.ledger import seal as seal_plan
from kg_context.gate.pure.rehydration import COPY_MARKER, retired_reference_ids
from kg_context.gate.pure.revision import revision_slots
from kg_context.gate.pure.rows import Plan, nested_sets, receipt_rows
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import (
    AdoptionState,
    ClaimFacts,
    CopySource,
    EntryState,
    Holder,
    LockedBoundary,
    OneUseCopy,
    RetiredSource,
    Revoked,
    SetFootprint,
    Snapshot,
)
from kg_context.vocabulary import (
    DEFAULT_CZAR_EVERY_COMMITS,
    LIVE_STATUSES,
    STANDING_STATUSES,
    OnRecallCopyDependency,
    WriterKind,
    as_values,
)

__all__ = [
    "NO_SNAPSHOT",
    "OpenedBatch",
    "SnapshotInputs",
    "SnapshotRead",
    "claimed_entries",
    "load_claims",
    "load_snapshot",
    "lock_boundary",
    "open_batch",
    "registered_writers",
    "snapshot_params",
    "write_plan",
]

_NO_WINDOW = 2**62


def _boundary(row: Record) -> LockedBoundary:
    return LockedBoundary(
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
        work_seq=row["work_seq"],
        ledger_pos=row["ledger_pos"],
        ledger_head=row["ledger_head"],
        czar_every_commits=row.get("czar_every_commits") or 0,
        czar_seq=row.get("czar_seq") or 0,
        one_use_pending=list(row.get("one_use_pending") or ()),
    )


def lock_boundary(tx: Transaction, boundary_id: str) -> LockedBoundary:
    """Take the boundary's write lock (a real write) and read it; the first thing the gate does."""
    rows = tx.run("gate/lock_boundary", boundary_id=boundary_id)
    if not rows:
        raise StateError(
            f"boundary {boundary_id} does not exist; open it with engine.boundary()",
            boundary_id=boundary_id,
        )
    return _boundary(rows[0])


@dataclass(frozen=True, slots=True)
class OpenedBatch:
    """What ``open_batch`` read under the lock: the boundary, what the record holds for each
    submitted proposal, and the pending proposals (ids and digests, in submission order)."""

    boundary: LockedBoundary
    submitted: list[Record]
    pending: list[Record]
    snapshot: SnapshotRead | None = None


def open_batch(
    tx: Transaction,
    boundary_id: str,
    *,
    proposals: list[dict[str, Any]],
    now: str,
    limit: int,
    snapshot: dict[str, Any] | None = None,
    inputs: SnapshotInputs | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> OpenedBatch | None:
    """Take the boundary's lock (as ``lock_boundary``), record ``proposals`` as pending, and read
    the boundary (with the czar's cadence it records) and its pending proposals (at most
    ``limit``): one statement. ``snapshot``: the parameters of the snapshot's reads
    (``snapshot_params``), guessed before the transaction (``inputs``: from what): the same
    statement reads them under the lock (``load_snapshot`` uses what they read only if they
    prove the right ones).
    ``meanwhile``: work done while the server runs it. ``None``: there is no such boundary
    (nothing was written)."""
    reads = {**NO_SNAPSHOT, **(snapshot or {}), "boundary_id": boundary_id}
    reply = tx.send(
        "gate/open_batch",
        boundary_id=boundary_id,
        batch={"proposals": proposals},
        now=now,
        limit=limit,
        default_czar_every=DEFAULT_CZAR_EVERY_COMMITS,
        reads=_reads(reads),
    )
    if meanwhile is not None:
        meanwhile()
    rows = reply()
    if not rows:
        return None
    row = rows[0]
    read = SnapshotRead(reads, row, inputs) if snapshot is not None else None
    return OpenedBatch(_boundary(row), row["submitted"], row["pending"], read)


def _entry(e: dict[str, Any]) -> EntryState:
    return EntryState(
        id=e["id"],
        boundary_id=e["boundary_id"],
        key=e["key"],
        status=e["status"],
        entry_class=e["class"],
        writer_id=e["writer_id"],
        resident=bool(e["resident"]),
        tokens=e.get("tokens") or 0,
        requires_out=e.get("requires_out") or 0,
        hard_held_by=tuple(e.get("hard_held_by") or ()),
        required_by=tuple(
            Holder(h["id"], h["policy"], h["until"]) for h in e.get("required_by") or ()
        ),
        failed_ancestors=tuple(e.get("failed_ancestors") or ()),
        set_id=e.get("set_id"),
        set_writers=tuple(e.get("set_writers") or ()),
        verse=e.get("verse"),
    )


def _superseded_ids(sets: list[ClosedSet]) -> list[str]:
    """The boundary's own entries the sets' new entries declare they supersede."""
    return sorted(
        {
            ref.entry_id
            for p in (p for c in sets for p in c.proposals)
            for e in p.entries
            for ref in e.supersedes
            if ref.boundary_id is None
        }
    )


class SnapshotInputs(NamedTuple):
    """What ``snapshot_params`` works the parameters out from (its arguments, as one value)."""

    boundary_id: str
    seq: int
    one_use_pending: list[str]
    sets: list[ClosedSet]
    constitution: Constitution
    default_lease: int
    extra_set_ids: tuple[str, ...]

    def params(self) -> dict[str, Any]:
        return snapshot_params(
            self.boundary_id,
            self.seq,
            self.one_use_pending,
            self.sets,
            self.constitution,
            default_lease=self.default_lease,
            extra_set_ids=self.extra_set_ids,
        )


def snapshot_params(
    boundary_id: str,
    seq: int,
    one_use_pending: list[str],
    sets: list[ClosedSet],
    constitution: Constitution,
    *,
    default_lease: int,
    extra_set_ids: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The parameters of the snapshot's reads (``gate/load_snapshot``, and the same reads in
    ``gate/open_batch``) for ``sets`` in a boundary at ``seq`` whose recall copies
    ``one_use_pending`` await their one use: a function of these alone."""
    entry_ids: set[str] = set()
    receipt_ids: set[str] = set()
    foreign: set[tuple[str, str]] = set()
    for proposal in (p for closed in sets for p in closed.proposals):
        entry_ids.update(proposal.entry_ids())
        if proposal.adoption_receipt_id:
            receipt_ids.add(proposal.adoption_receipt_id)
        for entry in proposal.entries:
            entry_ids.update(entry.references())
            foreign.update(
                (ref.boundary_id or "", ref.entry_id) for _, ref in entry.foreign_references()
            )
        entry_ids.update(t.entry_id for t in proposal.transitions)
        entry_ids.update(proposal.foundational)
    set_ids = [c.set_id for c in sets]
    targets = sorted({t for closed in sets for t in closed.targets})
    depends = sorted(
        {
            r
            for p in (p for c in sets for p in c.proposals)
            for e in p.entries
            for r in e.references()
        }
    )
    window = constitution.window.sets
    return {
        "boundary_id": boundary_id,
        "entry_ids": sorted(entry_ids),
        "superseded_ids": _superseded_ids(sets),
        "set_ids": set_ids,
        "standing": as_values(STANDING_STATUSES),
        "writer_ids": sorted({p.writer_id for closed in sets for p in closed.proposals}),
        "receipt_ids": sorted(receipt_ids),
        "foreign": [{"boundary_id": b, "entry_id": e} for b, e in sorted(foreign)],
        "targets": targets,
        "dependencies": depends,
        "from_seq": seq + 1 - window if window and (targets or depends) else _NO_WINDOW,
        "taken_ids": sorted({*set_ids, *extra_set_ids}),
        "one_use_ids": list(one_use_pending),
        "default_lease": default_lease,
        "slots": revision_slots(sets, constitution),
        "live": as_values(LIVE_STATUSES),
    }


def _reads(params: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's parameters as its statements take them: the boundary's id on its own, the
    rest in one map (``$reads``, planned once whatever its lists' lengths)."""
    return {name: params[name] for name in NO_SNAPSHOT}


# The snapshot's parameters when ``gate/open_batch`` is to read nothing of it (every list empty).
NO_SNAPSHOT: dict[str, Any] = {
    "entry_ids": [],
    "superseded_ids": [],
    "set_ids": [],
    "standing": [],
    "writer_ids": [],
    "receipt_ids": [],
    "foreign": [],
    "targets": [],
    "dependencies": [],
    "from_seq": _NO_WINDOW,
    "taken_ids": [],
    "one_use_ids": [],
    "default_lease": 0,
    "slots": [],
    "live": [],
}


@dataclass(frozen=True, slots=True)
class SnapshotRead:
    """What the snapshot's reads returned (``state``) for the parameters ``params`` (worked out
    from ``inputs``, where given)."""

    params: dict[str, Any]
    state: Record
    inputs: SnapshotInputs | None = None

    def holds_for(self, inputs: SnapshotInputs) -> bool:
        """Whether these reads are the ones ``inputs`` call for: the same inputs (the same
        parameters, not worked out again), or parameters that prove the same."""
        return self.inputs == inputs or self.params == inputs.params()


def load_snapshot(
    tx: Transaction,
    boundary: LockedBoundary,
    sets: list[ClosedSet],
    constitution: Constitution,
    *,
    default_lease: int,
    extra_set_ids: tuple[str, ...] = (),
    meanwhile: Callable[[], object] | None = None,
    read: SnapshotRead | None = None,
) -> Snapshot:
    """The boundary and everything the sets refer to: entries (and entries of other boundaries
    they name), registered writers, cited adoption receipts, the fragment window, recorded set
    ids (the batch's, and ``extra_set_ids``), earlier halts, the recall copies whose one use is
    still to come (those no longer standing and resident leave the pending list), and the live
    resident entries of the (class, key) slots its new entries would revise (``revision``).
    ``meanwhile``: work that needs none of it, done while the server reads (its statement sent,
    its rows not yet read). ``read``: what the same reads returned earlier in this transaction,
    under its lock (``gate/open_batch``): used, and nothing sent, when its parameters are the
    very ones these sets call for."""
    inputs = SnapshotInputs(
        boundary.id,
        boundary.seq,
        boundary.one_use_pending,
        sets,
        constitution,
        default_lease,
        extra_set_ids,
    )
    if read is not None and read.holds_for(inputs):
        if meanwhile is not None:
            meanwhile()
        state = read.state
    else:
        params = inputs.params()
        reply = tx.send(
            "gate/load_snapshot", boundary_id=params["boundary_id"], reads=_reads(params)
        )
        if meanwhile is not None:
            meanwhile()
        state = reply()[0]
    snapshot = Snapshot(boundary=boundary)
    for e in (*state["entries"], *state["on_slots"]):
        snapshot.add_entry(_entry(e))
    for set_id in state["halted_sets"]:
        snapshot.halt_counts[set_id] = snapshot.halt_counts.get(set_id, 0) + 1
    _fill_context(snapshot, state)
    _fill_one_use(snapshot, state["one_use"])
    _fill_retired_sources(tx, snapshot, retired_reference_ids(sets, snapshot))
    if constitution.on_dependency.recall_copy is OnRecallCopyDependency.SOURCE:
        _fill_copy_sources(tx, snapshot, copy_reference_ids(sets, snapshot))
    return snapshot


def _fill_copy_sources(tx: Transaction, snapshot: Snapshot, ids: list[str]) -> None:
    """The recall copies among ``ids`` and their sources (``[on_dependency] recall_copy``); each
    source joins the snapshot's entries."""
    if not ids:
        return
    rows = tx.run(
        "gate/copy_sources",
        boundary_id=snapshot.boundary.id,
        ids=ids,
        marker=COPY_MARKER,
        live=as_values(LIVE_STATUSES),
    )
    for r in rows:
        if r["copy_id"] in snapshot.copy_sources:
            continue  # a copy has one source: the first by id decides, as the statement orders
        source = snapshot.entries.get(r["source"]["id"]) or _entry(r["source"])
        snapshot.add_entry(source)
        snapshot.copy_sources[r["copy_id"]] = CopySource(r["copy_id"], source, bool(r["from_live"]))


def _fill_retired_sources(tx: Transaction, snapshot: Snapshot, ids: list[str]) -> None:
    """What the record holds of the retired entries ``ids`` the sets refer to: what a rule-made
    copy copies, and whether each was retired from live."""
    if not ids:
        return
    rows = tx.run(
        "gate/retired_sources",
        boundary_id=snapshot.boundary.id,
        ids=ids,
        live=as_values(LIVE_STATUSES),
    )
    snapshot.retired_sources = {
        r["id"]: RetiredSource(
            id=r["id"],
            entry_class=r["class"],
            key=r["key"],
            body=r["body"],
            set_seq=int(r["set_seq"]),
            from_live=bool(r["from_live"]),
        )
        for r in rows
    }


def _fill_one_use(snapshot: Snapshot, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        snapshot.entries.setdefault(row["id"], _entry(row))
        snapshot.one_use[row["id"]] = OneUseCopy(
            id=row["id"],
            expires_after_seq=int(row["expires_after_seq"]),
            foundational=bool(row["foundational"]),
            held_by=tuple(
                Holder(h["id"], h["policy"], None if h["until"] is None else int(h["until"]))
                for h in row["held_by"]
            ),
        )
    snapshot.boundary.one_use_pending = sorted(snapshot.one_use)


def _fill_context(snapshot: Snapshot, context: dict[str, Any]) -> None:
    snapshot.writers = {w["id"]: w["kind"] for w in context["writers"]}
    snapshot.adoptions = {
        r["id"]: AdoptionState(
            id=r["id"],
            boundary_id=r["boundary_id"],
            keys=frozenset(r["keys"]),
            uses=int(r["uses"]),
            used=int(r["used"]),
            valid_until_seq=r["valid_until_seq"],
            boundary_seq=int(r["boundary_seq"] or 0),
            material_verse=r["material_verse"],
        )
        for r in context["adoptions"]
    }
    snapshot.foreign = {(e["boundary_id"], e["id"]): _entry(e) for e in context["foreign"]}
    snapshot.recent_sets = sorted(
        (
            SetFootprint(
                id=f["id"],
                seq=int(f["seq"]),
                targets=frozenset(f["targets"]),
                writers=frozenset(f["writer_ids"]),
                fanout=int(f["fanout"]),
                entries=int(f["entry_count"]),
                lineage=frozenset(f["lineage"]),
                dependencies=frozenset(f["dependencies"]),
            )
            for f in context["recent_sets"]
        ),
        key=lambda f: f.seq,
    )
    snapshot.taken_set_ids = set(context["taken"])
    for r in context["revoked"]:
        found = Revoked(r["receipt_id"], r["boundary_id"], r["by"], int(r["seq"] or 0))
        into = snapshot.revoked_writers if r["kind"] == "writer" else snapshot.revoked_adoptions
        into[r["id"]] = found


def claimed_entries(closed: ClosedSet) -> list[str]:
    """The entries a czar set claims pre-authorized cases for (the graph must show them)."""
    return sorted(
        {
            t.entry_id
            for p in closed.proposals
            if p.writer_kind is WriterKind.CZAR
            for t in p.transitions
            if t.case is not None
        }
    )


def load_claims(
    tx: Transaction,
    snapshot: Snapshot,
    constitution: Constitution,
    entry_ids: list[str],
    *,
    default_lease: int,
    recall_max_entries: int,
    recall_max_depth: int,
) -> None:
    """What the graph shows now about the entries a czar set claims cases for (``ClaimFacts``),
    at the boundary's current seq: read only when the czar set is decided first in its
    transaction, so the graph read is exactly the state it commits against."""
    if not entry_ids:
        return
    boundary_id = snapshot.boundary.id
    work = snapshot.boundary.work_seq

    reached, _ = walk_held(  # once, every entry visited once: linear in the live state
        TransactionReader(tx),
        boundary_id,
        root_classes=constitution.root_class_names(),
        work=work,
        default_lease=default_lease,
        recall_max_entries=recall_max_entries,
        recall_max_depth=recall_max_depth,
        successors=constitution.roots.successors,
    )
    rows = tx.run(
        "gate/czar_claims",
        boundary_id=boundary_id,
        entry_ids=entry_ids,
        standing=as_values(STANDING_STATUSES),
        work=work,
        default_lease=default_lease,
        reached=[k for k in reached if isinstance(k, str)],
        reached_foreign=[list(k) for k in reached if isinstance(k, tuple)],
    )
    for row in rows:
        snapshot.claims[row["id"]] = ClaimFacts(
            reachable=bool(row["reachable"]),
            superseded_unexecuted=bool(row["superseded_unexecuted"]),
            default_superseded=bool(row["default_superseded"]),
        )


def registered_writers(tx: Transaction, boundary_id: str, writer_ids: set[str]) -> dict[str, str]:
    """The kind each of ``writer_ids`` registered with in the boundary (unregistered: absent)."""
    rows = tx.run("gate/registered_writers", boundary_id=boundary_id, writer_ids=sorted(writer_ids))
    return {row["id"]: row["kind"] for row in rows}


# A plan of at most this many sets is sealed before it is sent, its receipts, halts and ledger
# head written by ``gate/write_plan`` too (one statement); a larger one is sealed while the
# server writes it, and they follow in ``gate/write_sealed`` (the seal of one set takes a
# fraction of a round trip; a batch's, a share of its write worth overlapping).
SEAL_BEFORE_SETS = 4


def write_plan(
    tx: Transaction,
    boundary: LockedBoundary,
    plan: Plan,
    expected_seq: int,
    *,
    default_lease: int,
    seal: bool = True,
) -> None:
    """Everything the plan decided (``cypher/gate/write_plan.cypher``: each part skips an empty
    list; ``default_lease``: the lease of an edge that declared none, which a renewal restarts),
    its decisions sealed onto the boundary's ledger head as read under the lock
    (``gate.pure.ledger``): a plan of at most ``SEAL_BEFORE_SETS`` sets in that one statement,
    sealed first; a larger one in two, sealed while the server runs the first, its receipts,
    halts and ledger head then in ``cypher/gate/write_sealed.cypher``. ``seal=False`` writes
    the decisions unchained: only for measuring what the ledger costs."""
    b = plan.boundary
    assert b is not None, "the gate plans the boundary row of every batch"
    boundary_id = boundary.id
    head = LedgerHead(boundary.ledger_pos, boundary.ledger_head)

    def sealed_rows() -> dict[str, Any]:
        after = seal_plan(plan, boundary_id, head) if seal else head
        return {
            "receipts": receipt_rows(plan),
            "halts": plan.halts,
            "ledger_pos": after.pos if seal else None,
            "ledger_head": after.digest,
            "ledger_since_seq": expected_seq,
        }

    together = len(plan.sets) <= SEAL_BEFORE_SETS
    unsealed: dict[str, Any] = {  # a larger plan's: write_sealed writes them
        "receipts": [],
        "halts": [],
        "ledger_pos": None,
        "ledger_head": None,
        "ledger_since_seq": None,
    }
    written = tx.send(  # the plan's lists and the sealed part each in one map (catalog.py)
        "gate/write_plan",
        boundary_id=boundary_id,
        plan={
            "sets": nested_sets(plan),
            "derived": plan.derived_from,
            "summarizes": plan.summarizes,
            "requires": plan.requires,
            "foreign_edges": plan.foreign_edges,
            "adoption_uses": plan.adoption_uses,
            "renewals": plan.renewals,
            "foundational": plan.foundational,
            "supersedes": plan.supersedes,
            "transitions": plan.transitions,
            "one_use_pending": b["one_use_pending"],
        },
        standing=as_values(STANDING_STATUSES),
        default_lease=default_lease,
        expected_seq=expected_seq,
        seq=b["seq"],
        last_set_id=b["last_set_id"],
        live_count=b["live_count"],
        requires_count=b["requires_count"],
        committed_tokens=b["committed_tokens"],
        resident_tokens=b["resident_tokens"],
        work_seq=b["work_seq"],
        sealed=sealed_rows() if together else unsealed,
    )
    sealed = None
    if not together:
        sealed = tx.send("gate/write_sealed", boundary_id=boundary_id, sealed=sealed_rows())
    advanced = written()
    if sealed is not None:
        sealed()
    if not advanced:
        # Cannot happen while the lock is held; if it ever does, nothing of this
        # transaction may commit.
        raise StateError(
            f"boundary {boundary_id} moved past seq {expected_seq} under the gate's lock",
            boundary_id=boundary_id,
        )
