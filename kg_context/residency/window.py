"""The window: the resident entries of a boundary, grouped by class, ready to paste into a prompt.

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

from kg_context.gate.boundary import Boundary
from kg_context.gate.contracts import EntryClass

__all__ = ["Window", "WindowEntry", "window"]

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
class Window:
    boundary_id: str
    entries: tuple[WindowEntry, ...]

    @property
    def total_tokens(self) -> int:
        return sum(e.tokens for e in self.entries)

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
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "boundary_id": self.boundary_id,
            "total_tokens": self.total_tokens,
            "groups": [
                {"class": c, "entries": [asdict(e) for e in entries]}
                for c, entries in self.groups()
            ],
        }


def _tag(status: str, attributes: dict[str, Any], promoted_by: str | None = None) -> str:
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
            tag=_tag(r["status"], json.loads(r["attributes"]), r.get("promoted_by")),
        )
        for r in rows
    ]
    entries.sort(key=lambda e: (_CLASS_ORDER.get(e.entry_class, 99), e.set_seq, e.id))
    return Window(boundary_id=boundary_id, entries=tuple(entries))
