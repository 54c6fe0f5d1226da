"""The window: the resident entries of a boundary, grouped by class, ready to paste into a prompt,
then the resident part of the governed history index (the last ``[history_index] resident_last``
index lines, their tokens counted in ``prompt_tokens``), so a reader finds history without a query.

Order is deterministic: classes in the order of ``EntryClass`` (roots first), then by the seq of
the set that committed each entry, then by id. Every line carries the entry's status tag; recalled
scratch copies also carry their recall tag ("recalled: matched in set 17, retired, superseded by
e-31; one use"), or, once a committed entry of another set holds the copy, who promoted it
("...; promoted by d-40"): a promoted copy's one use is over and it stays.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.contracts import EntryClass

__all__ = ["IndexEntryLine", "Window", "WindowEntry", "status_tag", "window"]

_CLASS_ORDER = {c.value: i for i, c in enumerate(EntryClass)}


@dataclass(frozen=True, slots=True)
class WindowEntry:
    id: str
    entry_class: str
    key: str
    body: str
    status: str
    tokens: int
    set_seq: int
    set_id: str
    tag: str

    def render(self) -> str:
        return f"- [{self.tag}] {self.key}: {self.body}"


@dataclass(frozen=True, slots=True)
class IndexEntryLine:
    """A resident line of the governed history index."""

    set_id: str
    seq: int
    kind: str
    summary: str
    tokens: int

    def render(self) -> str:
        return f"- {self.seq} {self.set_id}: {self.summary}"


@dataclass(frozen=True, slots=True)
class Window:
    boundary_id: str
    entries: tuple[WindowEntry, ...]
    # The last ``[history_index] resident_last`` index lines, oldest first.
    index: tuple[IndexEntryLine, ...] = ()

    @property
    def total_tokens(self) -> int:
        """The resident entries' tokens (the boundary's resident state; ``stats``)."""
        return sum(e.tokens for e in self.entries)

    @property
    def index_tokens(self) -> int:
        """What the resident index lines cost."""
        return sum(line.tokens for line in self.index)

    @property
    def prompt_tokens(self) -> int:
        """Everything the window puts in a prompt: entries and resident index lines."""
        return self.total_tokens + self.index_tokens

    def groups(self) -> list[tuple[str, list[WindowEntry]]]:
        out: dict[str, list[WindowEntry]] = {}
        for entry in self.entries:
            out.setdefault(entry.entry_class, []).append(entry)
        return list(out.items())

    def render(self) -> str:
        lines = [
            f"# Window of {self.boundary_id}: {len(self.entries)} entries, "
            f"{self.total_tokens} tokens"
        ]
        for entry_class, entries in self.groups():
            lines.append(f"## {entry_class} ({len(entries)})")
            lines.extend(e.render() for e in entries)
        if self.index:
            lines.append(
                f"## history index (last {len(self.index)} sets, {self.index_tokens} tokens)"
            )
            lines.extend(line.render() for line in self.index)
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "boundary_id": self.boundary_id,
            "total_tokens": self.total_tokens,
            "index_tokens": self.index_tokens,
            "prompt_tokens": self.prompt_tokens,
            "groups": [
                {"class": c, "entries": [asdict(e) for e in entries]}
                for c, entries in self.groups()
            ],
            "index": [asdict(line) for line in self.index],
        }


def status_tag(status: str, attributes: dict[str, Any], promoted_by: str | None = None) -> str:
    """The tag a window line shows: the status, and a recalled copy's recall tag and use."""
    recalled = attributes.get("recall_tag")
    if isinstance(recalled, str):
        use = f"promoted by {promoted_by}" if promoted_by else "one use"
        return f"{status}; recalled: {recalled}; {use}"
    return status


def window(boundary: Boundary) -> Window:
    """The resident entries of ``boundary`` in prompt order."""
    boundary_id = boundary.id
    rows = boundary.executor.read(
        "window/resident", boundary_id=boundary_id, scratch_class=EntryClass.SCRATCH.value
    )
    entries = [
        WindowEntry(
            id=r["id"],
            entry_class=r["class"],
            key=r["key"],
            body=r["body"],
            status=r["status"],
            tokens=int(r["tokens"]),
            set_seq=int(r["set_seq"] or 0),
            set_id=str(r["set_id"]),
            tag=status_tag(r["status"], json.loads(r["attributes"]), r.get("promoted_by")),
        )
        for r in rows
    ]
    entries.sort(key=lambda e: (_CLASS_ORDER.get(e.entry_class, 99), e.set_seq, e.id))
    return Window(boundary_id=boundary_id, entries=tuple(entries), index=_index(boundary))


def _index(boundary: Boundary) -> tuple[IndexEntryLine, ...]:
    """The resident index lines, as many as the boundary's constitution keeps resident."""
    resident_last = boundary.constitution().history_index.resident_last
    if resident_last == 0:
        return ()
    rows = boundary.executor.read(
        "window/index", boundary_id=boundary.id, resident_last=resident_last
    )
    return tuple(
        IndexEntryLine(
            set_id=r["set_id"],
            seq=int(r["seq"]),
            kind=r["kind"],
            summary=r["summary"],
            tokens=int(r["tokens"]),
        )
        for r in rows
    )
