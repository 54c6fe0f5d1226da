"""Reading history: the index, the ledger walk, as-of, and search.

``index`` lists ratified sets in ledger order, ``walk`` opens one set backwards and forwards,
``as_of`` derives the record and window at a seq from the ledger, and ``search`` returns set ids
with status, never passages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, fields
from typing import Any

from kg_context.db.executor import Record
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.record.search import search_record
from kg_context.record.thoughts import ThoughtLine, search_thoughts
from kg_context.text.embeddings import TextEncoder
from kg_context.vocabulary import EntryStatus

__all__ = [
    "AsOf",
    "AsOfEntry",
    "IndexLine",
    "SearchLine",
    "SetWalk",
    "ThoughtLine",
    "WalkEntry",
    "WalkLink",
    "WalkTransition",
    "as_of",
    "index",
    "search",
    "search_thoughts",
    "walk",
]

_MAX_SEQ = 2**62


@dataclass(frozen=True, slots=True)
class IndexLine:
    set_id: str
    seq: int
    kind: str
    status: str  # the set's status (ratified)
    standing: str  # where its entries stand now: live, or the statuses they moved to
    writer_id: str
    summary: str  # the governed index line (built by the gate from the set's typed content)
    tokens: int  # what the line costs when it is resident in the window

    def as_dict(self) -> dict[str, Any]:
        """The line as JSON-ready data (the one form every surface shows)."""
        return asdict(self)

    def line(self) -> str:
        return f"{self.seq:>6}  {self.set_id}  [{self.kind}; {self.standing}]  {self.summary}"


def _standing(statuses: list[str]) -> str:
    if not statuses:
        return "no entries"
    counts = Counter(statuses)
    if set(counts) <= {EntryStatus.LIVE}:
        return EntryStatus.LIVE.value
    return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))


def index(
    boundary: Boundary,
    *,
    from_seq: int = 0,
    to_seq: int | None = None,
    limit: int = 1000,
) -> list[IndexLine]:
    """The ratified sets of a boundary in ledger order, one summary line each."""
    rows = boundary.executor.read(
        "history/index",
        boundary_id=boundary.id,
        from_seq=from_seq,
        to_seq=_MAX_SEQ if to_seq is None else to_seq,
        limit=limit,
    )
    return [
        IndexLine(
            set_id=r["set_id"],
            seq=r["seq"],
            kind=r["kind"] or "state",
            status=r["status"],
            standing=_standing(r["entry_statuses"]),
            writer_id=r["writer_id"],
            summary=r["summary"] or "",
            tokens=int(r["tokens"] or 0),
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class WalkEntry:
    """An entry the walked set decided, as it stands now."""

    entry: str
    entry_class: str
    key: str
    status: str
    resident: bool | None


@dataclass(frozen=True, slots=True)
class WalkLink:
    """A supersession or dependency between an entry of the walked set (``entry``) and another
    entry (``other``), in the set ``set_id`` at ``seq``. A supersession carries ``reason`` and
    ``executed``, a dependency ``edge``, ``essential`` and ``policy``; the rest is ``None``."""

    entry: str
    other: str
    set_id: str
    seq: int | None
    status: str | None
    reason: str | None = None
    executed: bool | None = None
    edge: str | None = None
    essential: bool | None = None
    policy: str | None = None


@dataclass(frozen=True, slots=True)
class WalkTransition:
    """A status move of an entry: by the walked set (``transitioned``, with its
    ``justification``) or by a later set (``transitioned_later``, with that set's ``kind``)."""

    entry: str
    from_status: str | None
    to_status: str
    reason: str | None
    set_id: str
    seq: int | None
    justification: str | None = None
    kind: str | None = None


WalkItem = WalkEntry | WalkLink | WalkTransition

# The JSON names of each walk field's items (the columns of history/walk.cypher's maps), and the
# attribute each name reads: the one JSON form carries exactly these keys per field.
_ATTRIBUTE = {"class": "entry_class", "from": "from_status", "to": "to_status"}
_SUPERSESSION = ("entry", "other", "reason", "executed", "set_id", "seq", "status")
_DEPENDENCY = ("entry", "other", "edge", "essential", "policy", "set_id", "seq", "status")
_COLUMNS: dict[str, tuple[str, ...]] = {
    "decided": ("entry", "class", "key", "status", "resident"),
    "superseded": _SUPERSESSION,
    "depended_on": _DEPENDENCY,
    "transitioned": ("entry", "from", "to", "reason", "justification", "set_id", "seq"),
    "superseded_by": _SUPERSESSION,
    "transitioned_later": ("entry", "from", "to", "reason", "set_id", "seq", "kind"),
    "depended_on_by": _DEPENDENCY,
}


def _item_dict(item: WalkItem, columns: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(item, _ATTRIBUTE.get(name, name)) for name in columns}


@dataclass(frozen=True, slots=True)
class SetWalk:
    """One set opened from the index: backwards and forwards along the ledger's links."""

    set_id: str
    boundary_id: str
    seq: int | None
    status: str
    kind: str
    writer_id: str
    summary: str
    previous_set_id: str | None
    next_set_id: str | None
    decided: tuple[WalkEntry, ...]
    superseded: tuple[WalkLink, ...]
    depended_on: tuple[WalkLink, ...]
    transitioned: tuple[WalkTransition, ...]
    superseded_by: tuple[WalkLink, ...]
    transitioned_later: tuple[WalkTransition, ...]
    depended_on_by: tuple[WalkLink, ...]

    @property
    def later_sets(self) -> list[str]:
        """The later sets that superseded, transitioned or built on this set's entries."""
        later: tuple[WalkLink | WalkTransition, ...] = (
            *self.superseded_by,
            *self.transitioned_later,
            *self.depended_on_by,
        )
        ids = {r.set_id for r in later}
        ids.discard(self.set_id)
        return sorted(ids)

    @property
    def earlier_sets(self) -> list[str]:
        """The earlier sets whose entries this set superseded, depended on or transitioned."""
        earlier: tuple[WalkLink | WalkTransition, ...] = (
            *self.superseded,
            *self.depended_on,
            *self.transitioned,
        )
        ids = {r.set_id for r in earlier}
        ids.discard(self.set_id)
        return sorted(ids)

    def as_dict(self) -> dict[str, Any]:
        """The walk as JSON-ready data, with the earlier and later set ids: the one form the
        CLI's ``--json``, the HTTP body and the MCP ``history`` result carry."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _COLUMNS:
                value = [_item_dict(item, _COLUMNS[f.name]) for item in value]
            out[f.name] = value
        return {**out, "earlier_sets": self.earlier_sets, "later_sets": self.later_sets}

    def lines(self) -> list[str]:
        out = [
            f"set {self.set_id} seq {self.seq} [{self.status}, {self.kind}] by {self.writer_id}",
            f"  summary: {self.summary}",
            f"  ledger: previous {self.previous_set_id} next {self.next_set_id}",
        ]
        for d in self.decided:
            out.append(f"  decided {d.entry} ({d.entry_class} {d.key!r}) now {d.status}")
        for s in self.superseded:
            out.append(f"  superseded {s.other} (set {s.set_id}): {s.reason}")
        for s in self.depended_on:
            out.append(
                f"  {s.entry} depends on {s.other} ({s.edge}) in set {s.set_id}, now {s.status}"
            )
        for t in self.transitioned:
            out.append(f"  moved {t.entry} {t.from_status} -> {t.to_status}: {t.reason}")
        for s in self.superseded_by:
            out.append(f"  later: {s.entry} superseded by {s.other} in set {s.set_id}")
        for t in self.transitioned_later:
            out.append(
                f"  later: {t.entry} {t.from_status} -> {t.to_status} by set {t.set_id} "
                f"({t.kind}) at seq {t.seq}: {t.reason}"
            )
        for s in self.depended_on_by:
            out.append(f"  later: {s.other} ({s.edge}) in set {s.set_id} depends on {s.entry}")
        return out


def walk(boundary: Boundary, set_id: str) -> SetWalk:
    """Open one set of the boundary: what it decided, superseded, depended on; what later
    happened to it. Set ids are unique within their boundary, so the boundary names it."""
    rows = boundary.executor.read("history/walk", boundary_id=boundary.id, set_id=set_id)
    if not rows:
        raise StateError(
            f"no set {set_id} in boundary {boundary.id}", boundary_id=boundary.id, set_id=set_id
        )
    return walk_from_row(rows[0])


def walk_from_row(r: Record) -> SetWalk:
    """The walk of one ``history/walk`` row, each list typed and sorted."""
    return SetWalk(
        set_id=r["set_id"],
        boundary_id=r["boundary_id"],
        seq=r["seq"],
        status=r["status"],
        kind=r["kind"] or "state",
        writer_id=r["writer_id"],
        summary=r["summary"] or "",
        previous_set_id=r["previous_set_id"],
        next_set_id=r["next_set_id"],
        decided=tuple(_entry(d) for d in _sorted(r["decided"], "entry")),
        superseded=tuple(_link(d) for d in _sorted(r["superseded"], "entry", "other")),
        depended_on=tuple(_link(d) for d in _sorted(r["depended_on"], "entry", "other")),
        transitioned=tuple(_transition(d) for d in _sorted(r["transitioned"], "entry")),
        superseded_by=tuple(_link(d) for d in _sorted(r["superseded_by"], "seq", "other")),
        transitioned_later=tuple(
            _transition(d) for d in _sorted(r["transitioned_later"], "seq", "entry")
        ),
        depended_on_by=tuple(_link(d) for d in _sorted(r["depended_on_by"], "seq", "other")),
    )


def _entry(d: Record) -> WalkEntry:
    return WalkEntry(
        entry=d["entry"],
        entry_class=d["class"],
        key=d["key"],
        status=d["status"],
        resident=d["resident"],
    )


def _link(d: Record) -> WalkLink:
    return WalkLink(
        entry=d["entry"],
        other=d["other"],
        set_id=d["set_id"],
        seq=d["seq"],
        status=d["status"],
        reason=d.get("reason"),
        executed=d.get("executed"),
        edge=d.get("edge"),
        essential=d.get("essential"),
        policy=d.get("policy"),
    )


def _transition(d: Record) -> WalkTransition:
    return WalkTransition(
        entry=d["entry"],
        from_status=d["from"],
        to_status=d["to"],
        reason=d["reason"],
        set_id=d["set_id"],
        seq=d["seq"],
        justification=d.get("justification"),
        kind=d.get("kind"),
    )


def _sorted(rows: list[Record], *keys: str) -> list[Record]:
    return sorted(rows, key=lambda r: tuple(_key(r[k]) for k in keys))


def _key(value: Any) -> tuple[int, Any]:
    return (0, "") if value is None else (1, value)


@dataclass(frozen=True, slots=True)
class AsOfEntry:
    id: str
    entry_class: str
    key: str
    set_id: str
    set_seq: int
    status: str
    resident: bool
    status_seq: int
    superseded_by: str | None
    tokens: int


@dataclass(frozen=True, slots=True)
class AsOf:
    """The record right after ``seq``: every entry then, and the window (the resident ones)."""

    boundary_id: str
    seq: int
    entries: list[AsOfEntry]

    @property
    def window(self) -> list[AsOfEntry]:
        return [e for e in self.entries if e.resident]

    def states(self) -> dict[str, tuple[str, bool]]:
        """entry id -> (status, resident) at that seq."""
        return {e.id: (e.status, e.resident) for e in self.entries}

    def as_dict(self, *, window_only: bool = False) -> dict[str, Any]:
        """The record at ``seq`` as JSON-ready data (each entry says whether it was resident):
        the one form every surface carries; ``window_only`` lists the resident entries alone
        (what ``kg-context history as-of`` shows without ``--all``)."""
        shown = self.window if window_only else self.entries
        return {
            "boundary_id": self.boundary_id,
            "seq": self.seq,
            "entries": [asdict(e) for e in shown],
        }


def as_of(boundary: Boundary, seq: int) -> AsOf:
    """The record and the window as they stood right after ``seq`` (derived from the ledger)."""
    executor, boundary_id = boundary.executor, boundary.id
    current = executor.read("boundary/get", boundary_id=boundary_id)
    if not current:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    if seq < 0 or seq > current[0]["seq"]:
        raise StateError(
            f"boundary {boundary_id} is at seq {current[0]['seq']}; "
            f"as-of {seq} is not in its ledger",
            boundary_id=boundary_id,
        )
    rows = executor.read("history/as_of", boundary_id=boundary_id, seq=seq)
    return AsOf(
        boundary_id=boundary_id,
        seq=seq,
        entries=[
            AsOfEntry(
                id=r["id"],
                entry_class=r["class"],
                key=r["key"],
                set_id=r["set_id"],
                set_seq=r["set_seq"],
                status=r["status"],
                resident=bool(r["resident"]),
                status_seq=r["status_seq"],
                superseded_by=r["superseded_by"],
                tokens=r["tokens"] or 0,
            )
            for r in rows
        ],
    )


@dataclass(frozen=True, slots=True)
class SearchLine:
    """Where a search matched: a set and the status of what matched in it, never the passage."""

    set_id: str
    set_seq: int | None
    entry_id: str
    status: str
    resident: bool
    superseded_by: str | None
    score: float

    def as_dict(self) -> dict[str, Any]:
        """The match as JSON-ready data (the one form every surface shows)."""
        return asdict(self)

    def line(self) -> str:
        text = f"matched in set {self.set_id} (seq {self.set_seq}), {self.status}"
        if self.superseded_by:
            text += f", superseded by {self.superseded_by}"
        return text + (", resident" if self.resident else "")


def search(
    boundary: Boundary,
    text: str,
    *,
    k: int = 10,
    embedder: TextEncoder | None = None,
) -> list[SearchLine]:
    """Search the record (fulltext and vector); the answer is set ids with status. A read: it
    writes nothing (an entry the write path has not embedded yet is found by its words alone)."""
    return [
        SearchLine(
            set_id=hit.set_id,
            set_seq=hit.set_seq,
            entry_id=hit.entry_id,
            status=hit.status,
            resident=bool(hit.resident),
            superseded_by=hit.superseded_by,
            score=float(hit.score),
        )
        for hit in search_record(boundary, text, k=k, embedder=embedder, read_only=True)
    ]
