"""Verifying a boundary's ledger (reads only): every record recomputed from the graph as it is
now (``gate.pure.ledger``'s canonical form), the chain walked in position order, and the state the
ledger decided checked against the graph.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.pure.ledger import (
    ENTRY_FIELDS,
    SET_FIELDS,
    chain_digest,
    content_digest,
    edge_part,
    part_digests,
    record_parts,
)

__all__ = ["LedgerFinding", "LedgerProblem", "LedgerVerification", "verify_ledger"]

_OPERATOR_RECEIPTS = frozenset({"resolution", "rejection"})  # an operator's halt resolution


class LedgerProblem(StrEnum):
    CONTENT_DIFFERS = "content_differs"  # a record's parts differ from what was sealed
    CHAIN_BROKEN = "chain_broken"  # the record is intact, its link to the previous one is not
    NO_DIGEST = "no_digest"  # a record without the outcome receipt that carries its digest
    MISSING_RECORD = "missing_record"  # a position of the chain with no record
    DUPLICATE_RECORD = "duplicate_record"  # two sets claim one position
    UNRECORDED_SET = "unrecorded_set"  # a set decided since the chain began, with no record
    UNCHAINED_RECEIPT = "unchained_receipt"  # a receipt on a chained set that no record holds
    STATE_DIFFERS = "state_differs"  # status/residency not what the ledger last decided
    ORPHAN_ENTRY = "orphan_entry"  # an entry no set contains
    HEAD_DIFFERS = "head_differs"  # the boundary's head is not the chain's last digest
    # an entry's ESSENTIALLY_DERIVED_FROM edges are not its essential DERIVED_FROM edges in its
    # boundary (the invalidation walk follows the former for what goes at risk)
    ESSENTIAL_EDGES_DIFFER = "essential_edges_differ"


@dataclass(frozen=True, slots=True)
class LedgerFinding:
    """One way the graph differs from the ledger: at which record (position and set; ``None``
    where no record names it) and what (``parts``: the record's parts that differ)."""

    problem: LedgerProblem
    set_id: str | None
    ledger_pos: int | None
    detail: str
    parts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LedgerVerification:
    """What ``verify_ledger`` found: ``findings`` in ledger order (``first``: the first record
    that differs); ``unchained_sets`` were decided before the chain began (at seq
    ``chained_since_seq``; ``None``: no record yet)."""

    boundary_id: str
    records: int
    sets: int
    unchained_sets: int
    chained_since_seq: int | None
    head: str | None
    findings: tuple[LedgerFinding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def first(self) -> LedgerFinding | None:
        return self.findings[0] if self.findings else None


@dataclass(slots=True)
class _Record:
    pos: int
    set_id: str
    digests: dict[str, str]
    stored_digest: str | None
    stored_prev: str | None
    stored_parts: dict[str, str]


@dataclass(slots=True)
class _Walk:
    """What the pages read so far."""

    since: int | None
    records: dict[int, _Record] = field(default_factory=dict)
    findings: list[LedgerFinding] = field(default_factory=list)
    # entry id -> [(pos, step, status, resident, set id)]: the flips the ledger records
    flips: dict[str, list[tuple[int, int, str, bool, str]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    current: dict[str, tuple[str, bool]] = field(default_factory=dict)
    # found while reading, reported after the chain's (a record that differs comes first)
    essential: list[LedgerFinding] = field(default_factory=list)
    sets: int = 0
    unchained: int = 0

    def find(self, problem: LedgerProblem, set_id: str | None, pos: int | None, detail: str,
             parts: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.findings.append(LedgerFinding(problem, set_id, pos, detail, parts))


def verify_ledger(
    executor: QueryExecutor, boundary_id: str, *, page: int = 500
) -> LedgerVerification:
    """Recompute a boundary's ledger from the graph, ``page`` sets per read."""
    if page < 1:
        raise InputValidationError(
            f"a page holds at least one set, not {page}", boundary_id=boundary_id
        )
    rows = executor.read("ledger/head", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    head = rows[0]
    walk = _Walk(since=head["ledger_since_seq"])
    after = ""
    while True:
        batch = executor.read(
            "ledger/sets_page",
            boundary_id=boundary_id,
            after=after,
            limit=page,
            entry_fields=list(ENTRY_FIELDS),
            set_fields=list(SET_FIELDS),
        )
        for row in batch:
            _take(walk, row)
        if len(batch) < page:
            break
        after = batch[-1]["id"]
    last = _chain(walk, boundary_id, int(head["ledger_pos"]), head["ledger_head"])
    _states(walk)
    walk.findings += walk.essential
    for orphan in executor.read("ledger/orphan_entries", boundary_id=boundary_id, limit=100):
        walk.find(LedgerProblem.ORPHAN_ENTRY, None, None, f"entry {orphan['id']} is in no set")
    order = sorted(walk.findings, key=lambda f: (f.ledger_pos is None, f.ledger_pos or 0))
    return LedgerVerification(
        boundary_id=boundary_id,
        records=len(walk.records),
        sets=walk.sets,
        unchained_sets=walk.unchained,
        chained_since_seq=walk.since,
        head=last,
        findings=tuple(order),
    )


def _revision(row: Record) -> int:
    seqs = [row["props"].get("seq") or 0, *(r.get("state_revision") or 0 for r in row["receipts"])]
    return max(int(s) for s in seqs)


def _take(walk: _Walk, page_row: Record) -> None:
    """One set: its records (one per position its receipts carry), its entries' flips."""
    row = {**page_row, "props": dict(page_row["props"])}
    walk.sets += 1
    set_id: str = row["id"]
    by_pos: dict[int, list[dict[str, Any]]] = defaultdict(list)
    loose: list[dict[str, Any]] = []
    for receipt in row["receipts"]:
        pos = receipt.get("ledger_pos")
        (by_pos[int(pos)] if pos is not None else loose).append(receipt)
    _essential_edges(walk, row, max(by_pos) if by_pos else None)
    if not by_pos:
        if walk.since is not None and (walk.since == 0 or _revision(row) > walk.since):
            walk.find(
                LedgerProblem.UNRECORDED_SET,
                set_id,
                None,
                f"set {set_id} carries no ledger record, though the chain began at seq "
                f"{walk.since}",
            )
        else:
            walk.unchained += 1
        return
    last = max(by_pos)
    for receipt in loose:
        if receipt.get("kind") not in _OPERATOR_RECEIPTS or not receipt.get("operator_id"):
            walk.find(
                LedgerProblem.UNCHAINED_RECEIPT,
                set_id,
                last,
                f"receipt {receipt.get('id')} ({receipt.get('kind')}) of set {set_id} is in no "
                "ledger record",
            )
    for pos in sorted(by_pos):
        _record(walk, row, pos, by_pos[pos], attached=pos == last)
    _set_state(walk, row, by_pos[last], last)


def _essential_edges(walk: _Walk, row: Record, pos: int | None) -> None:
    """Each entry of the set has an ESSENTIALLY_DERIVED_FROM edge to exactly the entries of its
    boundary it is essentially DERIVED_FROM (the edges its record covers), and none into it
    from outside its boundary: the edges the invalidation walk follows for the at-risk reach
    are the ones the ledger holds."""
    for e in row["entries"]:
        props = dict(e["props"])
        boundary_id = props.get("boundary_id")
        declared = {
            (boundary_id, edge["to"])
            for edge in e["edges"]
            if edge["type"] == "DERIVED_FROM"
            and edge["props"].get("essential") is True
            and edge["props"].get("boundary_id") is None
        }
        held = {(b, i) for b, i in e["essential_to"]}
        strays = sorted(str(i) for i in e["essential_from_elsewhere"])
        if held == declared and not strays:
            continue
        differ = [
            *(f"no edge to {i}" for _, i in sorted(declared - held, key=str)),
            *(
                f"an edge to {b}/{i}, not essentially derived"
                for b, i in sorted(held - declared, key=str)
            ),
            *(f"an edge from {i}, outside its boundary" for i in strays),
        ]
        walk.essential.append(
            LedgerFinding(
                LedgerProblem.ESSENTIAL_EDGES_DIFFER,
                row["id"],
                pos,
                f"entry {props.get('id')} of set {row['id']}: ESSENTIALLY_DERIVED_FROM "
                f"{'; '.join(differ)}",
                ("edges",),
            )
        )


def _record(
    walk: _Walk, row: Record, pos: int, receipts: list[dict[str, Any]], *, attached: bool
) -> None:
    """The record at ``pos`` as the graph holds it; ``attached``: the set's last record, which
    holds what the set wrote besides receipts and halts."""
    props = row["props"]
    held = row["entries"] if attached else []
    entries = [(dict(e["props"]), e["targets"]) for e in held]
    edges = [
        edge_part(edge["type"], e_props["id"], edge["to"], edge["props"])
        for (e_props, _), e in zip(entries, held, strict=True)
        for edge in e["edges"]
    ]
    parts = record_parts(
        set_props=props,
        committed=attached and props.get("status") == "ratified",
        receipts=receipts,
        halts=[h for h in row["halts"] if h.get("ledger_pos") == pos],
        entries=entries,
        edges=edges,
        flips=row["flips"] if attached else [],
        next_from=(row["next_from"] or [None])[0] if attached else None,
        writers=row["writers"] if attached else [],
        adoption_uses=row["adoption_uses"] if attached else [],
    )
    outcome = next((r for r in receipts if r.get("ledger_digest")), None)
    sealed = outcome or {}
    record = _Record(
        pos,
        row["id"],
        part_digests(parts),
        sealed.get("ledger_digest"),
        sealed.get("ledger_prev"),
        dict(p.split(":", 1) for p in sealed.get("ledger_parts") or []),
    )
    if pos in walk.records:
        walk.find(
            LedgerProblem.DUPLICATE_RECORD,
            row["id"],
            pos,
            f"sets {walk.records[pos].set_id} and {row['id']} both claim position {pos}",
        )
        return
    walk.records[pos] = record
    if attached:
        _note_flips(walk, row, pos, entries, edges)


def _note_flips(
    walk: _Walk,
    row: Record,
    pos: int,
    entries: list[tuple[dict[str, Any], Any]],
    edges: list[dict[str, Any]],
) -> None:
    """The flips the set's record holds, in the order the gate made them: its entries created
    (resident unless explored), the supersessions it executed, its transitions."""
    set_id = row["id"]
    for (props, _), e in zip(entries, row["entries"], strict=True):
        walk.current[props["id"]] = (e["status"], bool(e["resident"]))
        initial = str(props.get("initial_status"))
        walk.flips[props["id"]].append((pos, 0, initial, initial != "explored", set_id))
    for edge in edges:
        if edge["type"] == "SUPERSEDES" and edge.get("executed"):
            walk.flips[edge["to"]].append((pos, 1, "superseded", False, set_id))
    for flip in row["flips"]:
        walk.flips[flip["entry_id"]].append(
            (pos, 2, flip.get("to"), bool(flip.get("resident")), set_id)
        )


def _set_state(walk: _Walk, row: Record, receipts: list[dict[str, Any]], pos: int) -> None:
    """The set's status is what its last record decided."""
    outcome = next((r for r in receipts if r.get("ledger_digest")), None)
    if outcome is None:
        return  # no_digest is reported by the chain
    decided = {"commit": "ratified", "halt": "halted", "rejection": "rejected"}.get(
        str(outcome.get("kind"))
    )
    status = row["props"].get("status")
    rejected_by_operator = decided == "halted" and any(
        h.get("ledger_pos") == pos and h.get("resolution") == "reject" for h in row["halts"]
    )
    if status != decided and not (rejected_by_operator and status == "rejected"):
        walk.find(
            LedgerProblem.STATE_DIFFERS,
            row["id"],
            pos,
            f"set {row['id']} is {status}; its last record decided {decided}",
            ("set",),
        )


def _chain(walk: _Walk, boundary_id: str, head_pos: int, head: str | None) -> str | None:
    """Walk positions 1..head: each record's content against its sealed parts, each digest
    against its predecessor's. A record that differs is reported and the walk continues from
    its sealed digest, so every record that differs is named. Returns the last digest."""
    prev: str | None = None
    top = max([head_pos, *walk.records])
    for pos in range(1, top + 1):
        record = walk.records.get(pos)
        if record is None:
            walk.find(LedgerProblem.MISSING_RECORD, None, pos, f"no record at position {pos}")
            nxt = walk.records.get(pos + 1)
            prev = None if nxt is None else nxt.stored_prev  # resume after the gap
            continue
        digest = chain_digest(boundary_id, pos, prev, content_digest(record.digests))
        if record.stored_digest is None:
            walk.find(
                LedgerProblem.NO_DIGEST,
                record.set_id,
                pos,
                f"the record of set {record.set_id} at position {pos} has no outcome receipt "
                "with its digest",
                ("receipts",),
            )
        elif record.stored_parts != record.digests:
            differ = tuple(
                sorted(
                    n
                    for n in {*record.digests, *record.stored_parts}
                    if record.digests.get(n) != record.stored_parts.get(n)
                )
            )
            walk.find(
                LedgerProblem.CONTENT_DIFFERS,
                record.set_id,
                pos,
                f"the record of set {record.set_id} at position {pos} differs in "
                f"{', '.join(differ)}",
                differ,
            )
        elif digest != record.stored_digest:
            walk.find(
                LedgerProblem.CHAIN_BROKEN,
                record.set_id,
                pos,
                f"the record of set {record.set_id} at position {pos} does not chain to the "
                "record before it",
            )
        prev = record.stored_digest or digest
    if (head_pos, head) != (top, prev):
        walk.find(
            LedgerProblem.HEAD_DIFFERS,
            None,
            top,
            f"the boundary's head is position {head_pos}; the chain ends at position {top}",
        )
    return prev


def _states(walk: _Walk) -> None:
    """Every entry's status and residency against the last flip the ledger records for it."""
    for entry_id, flips in walk.flips.items():
        now = walk.current.get(entry_id)
        if now is None:
            continue  # created before the chain began, or in another boundary
        pos, _, status, resident, set_id = max(flips, key=lambda f: (f[0], f[1]))
        if now != (status, resident):
            walk.find(
                LedgerProblem.STATE_DIFFERS,
                set_id,
                pos,
                f"entry {entry_id} is {now[0]} (resident={now[1]}); the ledger last left it "
                f"{status} (resident={resident}) in set {set_id}",
                ("flips",),
            )
