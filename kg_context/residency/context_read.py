"""``context(boundary, budget_tokens, ...)``: read what the context of a boundary shows and
assemble it (``kg_context.residency.context`` owns the rules and the types). Reads only: nothing
is embedded and no index is created; record candidates already in the window are not repeated;
a focused context (``focus``) reads which query words name a key and skips the record search.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from kg_context.errors import InputValidationError, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.contracts import EntryClass
from kg_context.record.search import RecordHit, search_record
from kg_context.residency.context import (
    Context,
    ContextEntry,
    CountTokens,
    IndexItem,
    LineCounter,
    RecordItem,
)
from kg_context.residency.context_assembly import assemble, query_words
from kg_context.residency.window import status_tag
from kg_context.text.tokens import TokenCounter, get_token_counter

__all__ = ["RECORD_CANDIDATES", "Context", "CountTokens", "context"]

# How many candidates a query asks of the record (those already in the window are dropped).
RECORD_CANDIDATES = 10
# How many of a query's words are looked up as keys of the boundary (in sorted order).
QUERY_WORDS = 256
_CACHE_LIMIT = 200_000
_CACHED_TEXT_CHARS = 2_000
_cache: dict[str, int] = {}
_cache_lock = threading.Lock()


def _default_counter(tokens: TokenCounter) -> LineCounter:
    def prefixes(texts: Sequence[str]) -> list[int]:
        with _cache_lock:
            known = {t: _cache[t] for t in set(texts) if t in _cache}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            counted = dict(zip(missing, tokens.count(missing), strict=True))
            known.update(counted)
            with _cache_lock:
                if len(_cache) + len(counted) > _CACHE_LIMIT:
                    _cache.clear()
                _cache.update(counted)
        return [known[t] for t in texts]

    def lines(
        heads: Sequence[str], bodies: Sequence[str], stored: Sequence[int | None]
    ) -> list[int]:
        unknown = [b for b, n in zip(bodies, stored, strict=True) if n is None and b]
        counted = iter(tokens.count(unknown))
        body_costs = [
            n if n is not None else (next(counted) if b else 0)
            for b, n in zip(bodies, stored, strict=True)
        ]
        return [p + b for p, b in zip(prefixes(heads), body_costs, strict=True)]

    def text(whole: str) -> int:
        """Short texts (the title, legend and omission line) by the cache; the assembled text
        is counted afresh."""
        if not whole:
            return 0
        if len(whole) <= _CACHED_TEXT_CHARS:
            return prefixes([whole])[0]
        return tokens.count_text(whole)

    return LineCounter(lines=lines, text=text)


def _attributes(text: str) -> dict[str, Any]:
    return {} if text == "{}" else dict(json.loads(text))


def _given_counter(count: Callable[[str], int]) -> LineCounter:
    def lines(
        heads: Sequence[str], bodies: Sequence[str], stored: Sequence[int | None]
    ) -> list[int]:
        return [count(h + b) for h, b in zip(heads, bodies, strict=True)]

    return LineCounter(lines=lines, text=count)


def context(
    boundary: Boundary,
    budget_tokens: int,
    *,
    query: str | None = None,
    focus: bool = False,
    count_tokens: CountTokens = None,
) -> Context:
    """The governed window of ``boundary`` as a budgeted, citable context block (the rules:
    ``kg_context.residency.context``), with record candidates for ``query`` when given.
    ``focus``: a query that names a key of the boundary gets its keys and their neighbours'
    keys only (the rules' **Focus**). ``count_tokens`` is the consuming model's tokenizer; the
    default is the engine's."""
    if budget_tokens < 0:
        raise InputValidationError(
            f"a context budget is a number of tokens, at least 0; got {budget_tokens}",
            boundary_id=boundary.id,
        )
    ahead: Future[list[RecordHit]] | None = None
    if query is not None and not focus:  # the record search runs beside the window's read
        pool = ThreadPoolExecutor(max_workers=1)
        ahead = pool.submit(search_record, boundary, query, k=RECORD_CANDIDATES, read_only=True)
        pool.shutdown(wait=False)  # its one task still runs; the thread ends with it
    rows = boundary.executor.read(
        "window/context", boundary_id=boundary.id, scratch_class=EntryClass.SCRATCH.value
    )
    if not rows:
        raise StateError(f"no boundary {boundary.id}", boundary_id=boundary.id)
    head = rows[0]
    constitution = boundary.constitution_at(str(head["constitution_version"]))
    work = int(head["work_seq"] or 0)
    rows = head["entries"]
    resident = {str(r["id"]) for r in rows}
    entries = []
    for r in rows:
        needs: tuple[str, ...] = ()
        needs_out: tuple[str, ...] = ()
        need_keys: tuple[str, ...] = ()
        if r["needs"]:
            needs = tuple(sorted({str(n[0]) for n in r["needs"]}))
            out = {str(n[0]) for n in r["needs"] if not n[1]}
            needs_out = tuple(n for n in needs if n in out)
            need_keys = tuple(sorted({str(n[2]) for n in r["needs"]}))
        expires = r["expires_after_seq"]
        entries.append(
            ContextEntry(
                id=str(r["id"]),
                entry_class=str(r["class"]),
                key=str(r["key"]),
                body=str(r["body"]),
                tag=status_tag(str(r["status"]), _attributes(r["attributes"]), r["promoted_by"]),
                set_seq=int(r["set_seq"] or 0),
                tokens=None if r["tokens"] is None else int(r["tokens"]),
                needs=needs,
                needs_out=needs_out,
                need_keys=need_keys,
                lease_left=None if expires is None else max(0, int(expires) - work),
            )
        )
    index: list[IndexItem] = []
    resident_last = constitution.history_index.resident_last
    if resident_last:
        index = [
            IndexItem(str(r["set_id"]), int(r["seq"]), str(r["summary"]), int(r["tokens"]))
            for r in boundary.executor.read(
                "window/index", boundary_id=boundary.id, resident_last=resident_last
            )
        ]
    record: list[RecordItem] = []
    query_keys: frozenset[str] | None = None
    if query is not None and focus:
        words = sorted(query_words(query))[:QUERY_WORDS]
        query_keys = frozenset(
            str(r["key"])
            for r in boundary.executor.read(
                "window/record_keys", boundary_id=boundary.id, keys=words
            )
        )
    if query is not None and not query_keys:
        hits = (
            ahead.result()
            if ahead is not None
            else search_record(boundary, query, k=RECORD_CANDIDATES, read_only=True)
        )
        wanted = [h.entry_id for h in hits if h.entry_id not in resident]
        if wanted:
            found = {
                str(r["id"]): r
                for r in boundary.executor.read(
                    "recall/entries", ids=wanted, boundary_id=boundary.id
                )
            }
            record = [
                RecordItem(
                    id=i,
                    key=str(found[i]["key"]),
                    body=str(found[i]["body"]),
                    status=str(found[i]["status"]),
                    set_seq=int(found[i]["set_seq"] or 0),
                    superseded_by=found[i]["superseded_by"],
                )
                for i in wanted
                if i in found
            ]
    counter = (
        _given_counter(count_tokens)
        if count_tokens is not None
        else _default_counter(get_token_counter(boundary.settings.embedding))
    )
    return assemble(
        boundary_id=boundary.id,
        seq=int(head["seq"] or 0),
        constitution_version=str(head["constitution_version"]),
        root_classes=frozenset(constitution.root_class_names()),
        budget_tokens=budget_tokens,
        entries=entries,
        index=index,
        record=record,
        query=query,
        query_keys=query_keys,
        focus=focus,
        counter=counter,
    )
