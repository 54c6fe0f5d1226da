"""The assembly of a context (pure): the priority walk over a boundary's resident entries, its
resident history-index lines and record candidates, within a token budget, and the text and the
manifest it gives (the rules are ``kg_context.residency.context``'s docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kg_context.errors import InputValidationError
from kg_context.gate.pure.contracts import EntryClass
from kg_context.residency.context import (
    SECTIONS,
    WINDOW_SECTIONS,
    Context,
    ContextEntry,
    ContextManifest,
    IndexItem,
    LineCounter,
    Omission,
    RecordItem,
    Section,
)

__all__ = ["LEGEND", "assemble", "mentioned_keys", "query_words"]

_ENTRY_SECTIONS = frozenset(SECTIONS[:4])
_DECISIONS = frozenset({EntryClass.DECISION.value, EntryClass.CONSTRAINT.value})
_CLASS_ORDER = {c.value: i for i, c in enumerate(EntryClass)}
_SECTION_LABEL = {"roots": "root", "decisions": "current", "leased": "lease"}

# What each status tag means, for the legend (only the tags that appear are listed).
LEGEND = {
    "live": "current",
    "revalidated": "re-examined after a failure, current",
    "challenged": "disputed, still standing: check before relying on it",
    "at_risk": "rests on an entry that failed: re-examine",
    "superseded": "replaced by a newer entry",
    "retired": "out of the window, kept in the record",
    "invalidated": "found wrong",
    "explored": "considered, not adopted",
    "recalled": "a copy from the record for one use",
    "record": "from the record, not the window",
}


# Which calls bring back what each section left out.
_GET_BACK = {
    "index": ("as_of",),
    "record": ("recall",),
}
_WINDOW_GET_BACK = ("window", "why", "recall")


@dataclass(slots=True)
class _Item:
    section: str
    group: str  # the class (window entries), or the section name
    id: str
    prefix: str
    body: str
    stored: int | None
    order: tuple[Any, ...]  # display order within its group
    cost: int = 0
    tags: tuple[str, ...] = ()
    in_focus: bool = True  # with a query that names a key: on a key of its focus

    @property
    def line(self) -> str:
        return self.prefix + self.body


@lru_cache(maxsize=256)  # the statuses, and a few recall tags (each names its copy)
def _tag_names(tag: str) -> tuple[str, ...]:
    names = [tag.split(";", 1)[0].strip()]
    if "recalled:" in tag:
        names.append("recalled")
    if "record," in tag:
        names.append("record")
    return tuple(names)


def _flat(text: str) -> str:
    """``text`` on one line: every line break (as ``str.splitlines`` knows them) shown as ``↵``,
    so a writer's text can never start a line of its own (a forged entry, tag or last line)."""
    if text.isprintable():  # every line break splitlines knows is unprintable: none here
        return text
    parts = text.splitlines()
    return "↵".join(parts) if len(parts) > 1 or text.endswith(("\n", "\r")) else text


def _entry_item(entry: ContextEntry, section: str) -> _Item:
    if entry.needs or entry.lease_left is not None:
        bits = []
        inside = [i for i in entry.needs if i not in entry.needs_out]
        if inside:
            bits.append("needs: " + ", ".join(inside))
        if entry.needs_out:
            bits.append("needs, not in window: " + ", ".join(entry.needs_out))
        if entry.lease_left is not None:
            bits.append(f"lease: {entry.lease_left} sets left")
        prefix = f"- [{entry.tag}] {entry.id} ({'; '.join(bits)}) {entry.key}: "
    else:  # nothing to say between its id and its key (most entries)
        prefix = f"- [{entry.tag}] {entry.id} {entry.key}: "
    body = _flat(entry.body)
    return _Item(
        section,
        entry.entry_class,
        entry.id,
        _flat(prefix),
        body,
        entry.tokens if body == entry.body else None,
        (entry.set_seq, entry.id),
        tags=_tag_names(entry.tag),
    )


def _section_of(entry: ContextEntry, roots: frozenset[str]) -> str:
    if entry.entry_class in roots:
        return "roots"
    if entry.entry_class in _DECISIONS:
        return "decisions"
    if entry.entry_class == EntryClass.OPEN_QUESTION.value or entry.lease_left is not None:
        return "leased"
    return "rest"


# What ends a key named in a query (a key is a whole word of it: ``What is api/engine?``).
_QUERY_PUNCT = "\"'`()[]{}<>,;:!?"


def query_words(query: str | None) -> frozenset[str]:
    """The words of a query that may name a key: each whole word, with the punctuation around it
    stripped, and again without a last full stop."""
    words: set[str] = set()
    for word in (query or "").split():
        word = word.strip(_QUERY_PUNCT)
        words.update((word, word.rstrip(".")))
    words.discard("")
    return frozenset(words)


def mentioned_keys(body: str, keys: frozenset[str]) -> frozenset[str]:
    """The keys of ``keys`` a text mentions: its words as a query's (``query_words``), each also
    cut at its first ``@`` (a reference to one version of a key, such as ``api@s12``)."""
    words = query_words(body)
    return (words | {w.split("@", 1)[0] for w in words if "@" in w}) & keys


def _query_tiers(
    entries: Sequence[ContextEntry], query: str | None, keys: frozenset[str] | None
) -> dict[str, int] | None:
    """With a query that names a key (one of ``keys``, the query's words that name a key of the
    boundary; ``None``: those of the window's entries): 0 for each entry on a named key, 1 for
    each entry on a key of a graph neighbour of those (a key they need, or the key of an entry
    that needs an entry on a named key), 2 for each entry on a key that is only a text neighbour
    (a key their text mentions, or the key of an entry whose text mentions a named key); the
    others are absent. The graph's neighbours come first, so what a writer's text says never
    pushes out what an edge declares. ``None``: the query names no key."""
    if not query:
        return None
    words = query_words(query)
    window_keys = frozenset(e.key for e in entries)
    named_keys = (keys if keys is not None else window_keys) & words
    if not named_keys:
        return None
    key_of = {e.id: e.key for e in entries}
    known = window_keys | named_keys
    near: set[str] = set()
    said: set[str] = set()
    for e in entries:
        needed = {key_of[i] for i in e.needs if i in key_of} | set(e.need_keys)
        if e.key in named_keys:
            near.update(needed)
            said.update(mentioned_keys(e.body, known))
        elif named_keys & needed:
            near.add(e.key)
        # A key a text mentions is a substring of it: the cheap test first, the words only then.
        elif any(k in e.body for k in named_keys) and mentioned_keys(e.body, named_keys):
            said.add(e.key)
    out = {e.id: 2 for e in entries if e.key in said}
    out.update((e.id, 1) for e in entries if e.key in near)
    out.update((e.id, 0) for e in entries if e.key in named_keys)
    return out


_CLASS_KEYS = {c: (i, c) for c, i in _CLASS_ORDER.items()}


def _class_key(entry_class: str) -> tuple[int, str]:
    return _CLASS_KEYS.get(entry_class) or (len(_CLASS_ORDER), entry_class)


def _priority(
    entries: Sequence[ContextEntry],
    index: Sequence[IndexItem],
    record: Sequence[RecordItem],
    roots: frozenset[str],
    query: str | None = None,
    query_keys: frozenset[str] | None = None,
    focus: bool = False,
) -> list[_Item]:
    """Every item, in the order the budget walk takes them (the module docstring's rule)."""
    rank = {name: i for i, name in enumerate(SECTIONS)}
    tiers = _query_tiers(entries, query, query_keys)
    named = tiers or {}
    newest: dict[tuple[str, str], int] = {}
    for e in entries:
        slot = (e.entry_class, e.key)
        newest[slot] = max(newest.get(slot, e.set_seq), e.set_seq)

    def walk(p: tuple[str, ContextEntry]) -> tuple[Any, ...]:
        section, e = p
        older = e.set_seq < newest[(e.entry_class, e.key)]
        return (
            named.get(e.id, 3),
            older,
            rank[section],
            _class_key(e.entry_class),
            -e.set_seq,
            e.id,
        )

    window = sorted(((_section_of(e, roots), e) for e in entries), key=walk)
    items = [_entry_item(e, section) for section, e in window]
    # A query that names a key focuses the context: its keys and their neighbours' keys.
    focus = focus and tiers is not None
    if focus:
        for item in items:
            item.in_focus = item.id in named
    for line in sorted(index, key=lambda x: (-x.seq, x.set_id)):
        items.append(
            _Item(
                "index",
                "index",
                line.set_id,
                _flat(f"- {line.seq} {line.set_id}: "),
                _flat(line.summary),
                line.tokens if _flat(line.summary) == line.summary else None,
                (line.seq, line.set_id),
                in_focus=not focus,
            )
        )
    for position, hit in enumerate(record):
        superseded = f", superseded by {hit.superseded_by}" if hit.superseded_by else ""
        tag = f"{hit.status}; record, matched in set {hit.set_seq}{superseded}"
        items.append(
            _Item(
                "record",
                "record",
                hit.id,
                _flat(f"- [{tag}] {hit.id} {hit.key}: "),
                _flat(hit.body),
                None,
                (position,),
                tags=_tag_names(tag),
                in_focus=not focus,
            )
        )
    return items


def _header(item: _Item, query: str | None) -> str:
    if item.section == "index":
        return "## history index (resident)"
    if item.section == "record":
        return f"## record, not window: candidates for {query!r}"
    label = _SECTION_LABEL.get(item.section)
    return f"## {item.group}" + (f" ({label})" if label else "")


def _legend(items: Sequence[_Item]) -> str:
    seen = sorted({t for item in items for t in item.tags}, key=lambda t: (t not in LEGEND, t))
    parts = [f"[{t}] {LEGEND.get(t, t)}" for t in seen]
    if any("(needs" in item.prefix for item in items):
        parts.append("needs: ids it requires")
    return ("Tags: " + " · ".join(parts)) if parts else ""


def _omission_line(left: Sequence[Omission]) -> str:
    if not left:
        return "Left out: nothing."
    window = [o for o in left if o.section in _ENTRY_SECTIONS]
    parts = []
    calls: list[str] = []
    if window:
        n, tokens = sum(len(o.ids) for o in window), sum(o.tokens for o in window)
        off = sum(len(o.ids) for o in window if o.reason == "focus")
        why = f"; {off} off the query's keys and their neighbours'" if off else ""
        parts.append(f"{n} window entr{'y' if n == 1 else 'ies'} ({tokens} tokens{why})")
        calls += ["window()", "why(id)"]
    for section, noun, call in (
        ("index", "history-index line", "as_of(seq)"),
        ("record", "record candidate", "recall(query)"),
    ):
        n = sum(len(o.ids) for o in left if o.section == section)
        if n:
            parts.append(f"{n} {noun}{'' if n == 1 else 's'}")
            calls.append(call)
    return f"Left out: {', '.join(parts)}; get them with {', '.join(calls)}."


def _shown(taken: Sequence[_Item]) -> list[_Item]:
    """The items taken, in text order: sections, classes, then window order (seq, id)."""
    rank = {name: i for i, name in enumerate(SECTIONS)}

    def key(item: _Item) -> tuple[Any, ...]:
        by_class = _class_key(item.group) if item.section in _ENTRY_SECTIONS else (0, "")
        return (rank[item.section], by_class, item.order)

    return sorted(taken, key=key)


def _render(title: str, taken: Sequence[_Item], left: Sequence[Omission], query: str | None) -> str:
    lines = [title]
    legend = _legend(taken)
    if legend:
        lines.append(legend)
    header = None
    for item in _shown(taken):
        this = _header(item, query)
        if this != header:
            lines.append(this)
            header = this
        lines.append(item.line)
    lines.append(_omission_line(left))
    return "\n".join(lines)


def _omissions(items: Sequence[_Item], taken_ids: set[int]) -> list[Omission]:
    groups: dict[tuple[str, str, str], list[_Item]] = {}
    for item in items:
        if id(item) not in taken_ids:
            reason = "budget" if item.in_focus else "focus"
            groups.setdefault((item.section, item.group, reason), []).append(item)
    rank = {name: i for i, name in enumerate(SECTIONS)}
    out = []
    for (section, group, reason), missed in sorted(
        groups.items(), key=lambda g: (rank[g[0][0]], _class_key(g[0][1]), g[0][2])
    ):
        window = section in _ENTRY_SECTIONS
        out.append(
            Omission(
                section=section,
                entry_class=group if window else None,
                ids=tuple(i.id for i in missed),
                tokens=sum(i.cost for i in missed),
                get_back=_WINDOW_GET_BACK if window else _GET_BACK[section],
                reason=reason,
            )
        )
    return out


def assemble(
    *,
    boundary_id: str,
    seq: int,
    constitution_version: str,
    root_classes: frozenset[str],
    budget_tokens: int,
    entries: Sequence[ContextEntry],
    index: Sequence[IndexItem] = (),
    record: Sequence[RecordItem] = (),
    query: str | None = None,
    query_keys: frozenset[str] | None = None,
    focus: bool = False,
    counter: LineCounter,
) -> Context:
    """The context of one boundary within ``budget_tokens`` by ``counter`` (the module
    docstring's rules). ``query_keys``: the query's words that name a key of the boundary, in
    the window or in the record (``None``: those that name a key of ``entries``); ``focus``:
    a query that names one of them focuses the context. Pure: the same inputs give
    byte-identical output."""
    if budget_tokens < 0:
        raise InputValidationError(
            f"a context budget is a number of tokens, at least 0; got {budget_tokens}"
        )
    items = _priority(entries, index, record, root_classes, query, query_keys, focus)
    costs = counter.lines(
        [i.prefix for i in items], [i.body for i in items], [i.stored for i in items]
    )
    for item, cost in zip(items, costs, strict=True):
        item.cost = cost
    title = _flat(
        f"# Context of {boundary_id} at seq {seq}, constitution {constitution_version} "
        f"(budget {budget_tokens} tokens)"
    )
    item_headers = [_header(i, query) for i in items]
    headers = sorted(set(item_headers))
    header_cost = dict(
        zip(
            headers, counter.lines(headers, [""] * len(headers), [None] * len(headers)), strict=True
        )
    )
    everything_left = _omissions(items, set())
    # The fixed parts at their largest: the legend of every tag, the omission line of everything.
    minimal = "\n".join([title, _omission_line(everything_left)])
    taken: list[_Item] = []
    left, text, tokens = everything_left, "", counter.text("")
    if counter.text(minimal) <= budget_tokens:
        # The fixed parts at their largest: the legend of every tag, the omission line of all.
        left_budget = budget_tokens - counter.text(
            "\n".join([title, _legend(items), _omission_line(everything_left)])
        )
        headed: set[str] = set()
        for item, header in zip(items, item_headers, strict=True):
            if not item.in_focus:
                continue
            cost = item.cost + (0 if header in headed else header_cost[header])
            if cost <= left_budget:
                taken.append(item)
                headed.add(header)
                left_budget -= cost
        while True:  # measure the text itself: counts need not add up across lines
            left = _omissions(items, {id(i) for i in taken})
            text = _render(title, taken, left, query)
            tokens = counter.text(text)
            if tokens <= budget_tokens or not taken:
                break
            taken.pop()
    if tokens > budget_tokens:
        raise InputValidationError(
            f"the counter counts {tokens} tokens for an empty context; a budget of "
            f"{budget_tokens} cannot be met"
        )
    shown = _shown(taken)
    sections = []
    for name in SECTIONS:
        mine = [i for i in shown if i.section == name]
        if mine:
            sections.append(Section(name, tuple(i.id for i in mine), sum(i.cost for i in mine)))
    manifest = ContextManifest(
        boundary_id=boundary_id,
        seq=seq,
        constitution_version=constitution_version,
        budget_tokens=budget_tokens,
        tokens=tokens,
        query=query,
        sections=tuple(sections),
        left_out=tuple(left),
        window_tokens=sum(i.cost for i in items if i.section in WINDOW_SECTIONS),
    )
    return Context(text=text, manifest=manifest, tokens=tokens, budget_tokens=budget_tokens)
