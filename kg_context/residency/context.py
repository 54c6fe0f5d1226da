"""The context a model reads: the governed window assembled into one prompt section that never
exceeds a token budget, every entry cited by id, with a manifest of what it holds and what it
left out (the types and the rules; ``context_assembly`` applies them, ``context_read`` reads the
boundary).

The text, one whole line per item::

    # Context of team-7 at seq 42, constitution 3 (budget 8192 tokens)
    Tags: [live] current · [at_risk] rests on a failed entry: re-examine · needs: ids it requires
    ## decision (root)
    - [live] d-2 (needs: d-1) api: REST over HTTP
    ## open_question (lease)
    - [live] q-1 (lease: 3 sets left) cache: Which cache?
    ## history index (resident)
    - 41 team-7/s41: decision api by planner
    ## record, not window: candidates for "cache"
    - [retired; record: matched in set 17, superseded by d-9] d-3 db: Use Postgres
    Left out: 3 window entries (412 tokens), 1 record candidate; get them with window(), ...

**Priority** (what stays when the live state exceeds the budget), one walk over sections in this
order: ``roots`` (entries of the constitution's root classes), ``decisions`` (decisions and
constraints the constitution does not root), ``leased`` (open questions, and entries held by their
own lease, such as recalled copies in their one use, with the work left on it), ``rest`` (every
other resident entry), ``index`` (the resident history-index lines), and,
with a query, ``record`` (candidates from the record that are not in the window, best first).
Within a window section classes go in ``EntryClass`` order (declared classes after, by name), and
within a class newest first (set seq descending, then id); index lines newest first. Two rules
come before the sections, both read from the graph: an entry that has a newer resident entry of
its class on its key (a revision that did not declare supersession leaves both standing) is
taken after every entry that is the newest on its key; and with a query, the entries on a key the
query names (a whole word of it) are taken first, then the entries on the keys of their window
neighbours (what they need and what needs them).

**Focus** (asked for with ``focus``). A query names a key when one of its whole words is a key of
the boundary, in the window or in the record. Such a query focuses the context on the live state
the question stands on: the walk takes the entries on the named keys and on their neighbours' keys
(the keys of what they need, in the window or not, and of the entries that need an entry on a named
key) and stops there, however much budget is left; a named key with nothing in the window focuses
on nothing. Everything else (the rest of the window, the history-index lines) is left out with the
reason ``focus`` and named in the manifest with the calls that bring it back; the record is not
searched (what is no longer live comes back through ``recall``/``as_of``). A query that names no
key of the boundary has nothing to focus on: the walk covers every section as without a query, then
its record candidates. Focus is not the default: it follows declared edges only, so a citation the
writer did not declare (a missing or wrong dependency) leaves its target out, where the whole
window, while it fits, still shows it.

Each item is taken as a whole line when it fits in what is left of the budget (its class header
counted with its first line); a line that does not fit is left out and the walk goes on, so a
smaller later line may still fit. The text shows what was taken in window order (set seq, then
id).

**Fixed parts**, always counted: the title, the legend (only the tags that appear), the class and
section headers, and the last line, which says what was left out and which call brings it back
(or ``Left out: nothing.``). When the budget cannot hold the title and that last line, the text is
empty and the manifest says everything was left out. The assembled text is measured once with the
counter (counts need not add up across lines); while it is over the budget, the last item taken is
dropped and it is measured again. So ``tokens <= budget_tokens`` by the counter, always.
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
