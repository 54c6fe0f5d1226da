"""The context a model reads: the governed window assembled into one prompt section that never
exceeds a token budget, every entry cited by id, with a manifest of what it holds and what it
left out. This module owns the types and the rules (priority, fixed parts); ``context_assembly``
applies them and ``context_read`` reads the boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "RETRIEVALS",
    "SECTIONS",
    "WINDOW_SECTIONS",
    "Context",
    "ContextEntry",
    "ContextManifest",
    "CountTokens",
    "IndexItem",
    "LineCounter",
    "Omission",
    "RecordItem",
    "Retrieval",
    "Section",
]

# The sections in priority order; the first five are the window's.
SECTIONS = ("roots", "decisions", "leased", "rest", "index", "record")
WINDOW_SECTIONS = frozenset(SECTIONS[:5])
# A model's tokenizer: tokens of one text (``None``: the engine's own).
CountTokens = Callable[[str], int] | None


@dataclass(frozen=True, slots=True)
class Retrieval:
    """A call that brings back what a context left out, in its three forms."""

    name: str
    python: str
    http: str
    cli: str
    brings: str


RETRIEVALS: dict[str, Retrieval] = {
    r.name: r
    for r in (
        Retrieval(
            "window",
            "Boundary.window()",
            "GET /boundaries/{id}/window",
            "kg-context window BOUNDARY",
            "every resident entry, whole",
        ),
        Retrieval(
            "why",
            "Boundary.why(entry_id)",
            "GET /boundaries/{id}/entries/{entry_id}/why",
            "kg-context why ENTRY -b BOUNDARY",
            "what holds one entry resident, root first",
        ),
        Retrieval(
            "as_of",
            "Boundary.as_of(seq)",
            "GET /boundaries/{id}/history/as-of/{seq}",
            "kg-context history as-of SEQ -b BOUNDARY",
            "the record and the window right after a seq",
        ),
        Retrieval(
            "recall",
            "Boundary.recall(query)",
            "GET /boundaries/{id}/recall?q=QUERY",
            "kg-context recall BOUNDARY QUERY",
            "candidates from the record, status-tagged",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class ContextEntry:
    """One resident entry as the assembly needs it. ``tokens``: the body's stored count (used
    as the body's cost with the default counter), ``None`` when unknown."""

    id: str
    entry_class: str
    key: str
    body: str
    tag: str
    set_seq: int
    tokens: int | None = None
    needs: tuple[str, ...] = ()
    needs_out: tuple[str, ...] = ()  # of ``needs``: the ones not in the window
    need_keys: tuple[str, ...] = ()  # the keys of what it needs, in the window or not
    lease_left: int | None = None  # work sets left on the entry's own lease


@dataclass(frozen=True, slots=True)
class IndexItem:
    set_id: str
    seq: int
    summary: str
    tokens: int | None = None


@dataclass(frozen=True, slots=True)
class RecordItem:
    """A recall candidate from the record that is not in the window."""

    id: str
    key: str
    body: str
    status: str
    set_seq: int
    superseded_by: str | None = None


@dataclass(frozen=True, slots=True)
class Section:
    """What one section holds: ids in text order (``index``: set ids) and their lines' tokens
    (each line counted alone by the counter)."""

    name: str
    ids: tuple[str, ...]
    tokens: int


@dataclass(frozen=True, slots=True)
class Omission:
    """What was left out of one section (of one class, for window entries), why (``reason``:
    ``budget``, it did not fit; ``focus``, it is off the query's keys and their neighbours'),
    and the calls (names in ``RETRIEVALS``) that bring it back."""

    section: str
    entry_class: str | None
    ids: tuple[str, ...]
    tokens: int
    get_back: tuple[str, ...]
    reason: str = "budget"


@dataclass(frozen=True, slots=True)
class ContextManifest:
    """Beside the text: what it holds per section, what was left out, how to get that back.
    ``window_tokens`` is every window line (entries and resident index lines), each counted
    alone; the window sections' tokens plus the window omissions' tokens add up to it."""

    boundary_id: str
    seq: int
    constitution_version: str
    budget_tokens: int
    tokens: int
    query: str | None
    sections: tuple[Section, ...]
    left_out: tuple[Omission, ...]
    window_tokens: int
    retrievals: tuple[Retrieval, ...] = tuple(RETRIEVALS.values())

    @property
    def included_ids(self) -> tuple[str, ...]:
        return tuple(i for s in self.sections for i in s.ids)

    @property
    def left_out_count(self) -> int:
        return sum(len(o.ids) for o in self.left_out)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Context:
    """A budgeted, citable context block: the text, its manifest, its tokens by the counter."""

    text: str
    manifest: ContextManifest
    tokens: int
    budget_tokens: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "tokens": self.tokens,
            "budget_tokens": self.budget_tokens,
            "manifest": self.manifest.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class LineCounter:
    """How the assembly counts: ``lines(prefixes, bodies, stored)`` the cost of each line
    ``prefix + body`` (``stored``: the body's known count or ``None``), ``text`` one text."""

    lines: Callable[[Sequence[str], Sequence[str], Sequence[int | None]], list[int]]
    text: Callable[[str], int]
