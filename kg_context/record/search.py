"""Search over the record: fulltext and vector, exact per boundary, status-tagged.

The record is never the judge: search proposes candidates (with their set, status, residency and
superseder) and changes nothing (it reads what the write path embedded); ``embed_pending`` is
that write-path step (after each commit of a boundary handle, or ``kg-context embed``). Both
halves answer for one boundary whatever the others hold; ranking fuses them by reciprocal rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from kg_context.db.executor import Record
from kg_context.db.text_index import boundary_fulltext_query, fulltext_words
from kg_context.errors import InputValidationError, QueryError
from kg_context.gate.io.boundary import Boundary
from kg_context.record.vector_index import (
    BoundaryIndex,
    boundary_index_known_online,
    boundary_index_state,
    boundary_vector_label,
    ensure_boundary_index,
    forget_boundary_index,
)
from kg_context.text.embeddings import TextEncoder, get_embedder

__all__ = [
    "RecordHit",
    "VectorSearch",
    "embed_committed",
    "embed_pending",
    "fulltext_query",
    "recall_tag",
    "search_record",
    "unit",
    "vector_search",
]

MatchedBy = Literal["fulltext", "vector", "both"]
Strategy = Literal["exact", "boundary-index"]

# Reciprocal-rank-fusion constant (the usual 60).
_RRF_K = 60
# A boundary's own index is asked for _OWN_INDEX_MARGIN x k neighbours (at least
# _MIN_CANDIDATES), re-ranked by exact cosine: the index quantizes, the re-ranking does not.
_MIN_CANDIDATES = 100
_OWN_INDEX_MARGIN = 4


@dataclass(frozen=True, slots=True)
class RecordHit:
    """One entry the record matched, with where it sits in the ledger."""

    entry_id: str
    key: str
    set_id: str
    set_seq: int
    status: str
    resident: bool
    superseded_by: str | None
    score: float
    matched_by: MatchedBy

    def as_dict(self) -> dict[str, Any]:
        """The hit as JSON-ready data with its status tag: the one form the CLI's ``--json``,
        the HTTP body and the MCP ``recall`` result carry."""
        return {**asdict(self), "tag": self.tag()}

    def tag(self) -> str:
        """``matched in set 17, retired, superseded by e-31`` (the status tag recall shows)."""
        return recall_tag(self.set_seq, self.status, self.superseded_by)


def recall_tag(set_seq: int, status: str, superseded_by: str | None) -> str:
    """The status tag of a recalled entry: where it matched, its status, what superseded it
    (shown by recall and kept on each scratch copy recall admits)."""
    text = f"matched in set {set_seq}, {status}"
    return f"{text}, superseded by {superseded_by}" if superseded_by else text


@dataclass(frozen=True, slots=True)
class VectorSearch:
    """The vector half of a search: the boundary's rows, best first, and how they were found
    (``exact``: every embedded entry of the boundary ranked; ``boundary-index``: the boundary's
    own vector index asked for ``candidates`` neighbours, re-ranked exactly)."""

    rows: list[Record]
    strategy: Strategy
    candidates: int


def fulltext_query(text: str) -> str:
    """A Lucene query matching any word of ``text``, with every operator character neutralised
    (the words part of a search; ``kg_context.db.text_index`` adds the boundary)."""
    return fulltext_words(text)


def embed_pending(
    boundary: Boundary,
    embedder: TextEncoder | None = None,
    batch: int = 256,
) -> int:
    """Embed ``key: body`` of every entry of the boundary still marked ``embedding_pending``
    whose set was ratified by the time the call began (at or below the boundary's seq then);
    returns how many entries were embedded (with the engine's embedding model unless
    ``embedder``). Finding them is a seek on the pending marker. Entries committed meanwhile
    wait for the next call, so a write stream faster than the model never holds a call up.

    When it embedded something and the boundary now holds more embedded entries than the exact
    bound, the boundary's own vector index is made (``ensure_boundary_index``; a search only
    reads it)."""
    if batch < 1:
        raise InputValidationError("batch must be at least 1", boundary_id=boundary.id)
    executor, boundary_id = boundary.executor, boundary.id
    up_to_seq = boundary.state().seq
    total = 0
    while True:
        rows = executor.read(
            "record/pending_embeddings", boundary_id=boundary_id, batch=batch, up_to_seq=up_to_seq
        )
        if rows:
            embedder = embedder or get_embedder(boundary.settings.embedding)
            vectors = embedder.encode([f"{r['key']}: {r['body']}" for r in rows])
            payload = [
                {"id": r["id"], "embedding": unit(v.tolist())}
                for r, v in zip(rows, vectors, strict=True)
            ]
            written = executor.write(
                "record/write_embeddings",
                boundary_id=boundary_id,
                rows=payload,
                model=embedder.settings.model,
                label=boundary_vector_label(boundary_id),
            )
            total += int(written[0]["written"]) if written else 0
        if len(rows) < batch:
            break
    if total:
        _index_when_large(boundary)
    return total


def embed_committed(boundary: Boundary) -> int:
    """The write path's step after a commit: ``embed_pending`` when the engine's settings embed
    on commit (``KG_CONTEXT_EMBEDDING_ON_COMMIT``, the default), else nothing (the operator's
    ``kg-context embed`` does it later). How many entries it embedded."""
    return embed_pending(boundary) if boundary.settings.embedding.on_commit else 0


def _index_when_large(boundary: Boundary) -> None:
    """Make the boundary's own vector index once it holds more embedded entries than the exact
    bound (and boundary indexes are on), unless this process has seen it online."""
    executor, boundary_id = boundary.executor, boundary.id
    settings = boundary.settings.search
    if not settings.boundary_indexes or boundary_index_known_online(executor, boundary_id):
        return
    cap = settings.exact_max_entries + 1
    sizes = executor.read("record/search_vector_sizes", boundary_id=boundary_id, cap=cap)[0]
    if int(sizes["embedded"]) >= cap:
        ensure_boundary_index(executor, boundary_id, boundary.settings.embedding.dimensions)


def unit(vector: Sequence[float]) -> list[float]:
    """``vector`` scaled to unit length, as Python floats (a zero vector stays as it is): what
    is stored and queried, so that Euclidean closeness ranks as cosine does."""
    values = [float(x) for x in vector]
    norm = math.sqrt(math.fsum(x * x for x in values))
    return [x / norm for x in values] if norm > 0 else values


def _hits(rows: list[Record]) -> list[Record]:
    return [r for r in rows if r["entry_id"] is not None]


def vector_search(
    boundary: Boundary, vector: Sequence[float], k: int, *, read_only: bool = False
) -> VectorSearch:
    """The boundary's ``k`` nearest entries to ``vector``: through its own vector index once
    that is online (a boundary past the exact bound: made here if absent, unless
    ``read_only``), else exactly (every embedded entry of the boundary ranked: a small
    boundary, or a large one while its own index fills or answers short of ``k``).
    ``docs/internals.md`` states both guarantees."""
    executor, boundary_id = boundary.executor, boundary.id
    settings = boundary.settings.search
    values = unit(vector)  # any sequence of numbers: unit length, a list of Python floats
    known = settings.boundary_indexes and boundary_index_known_online(executor, boundary_id)
    if known:
        own = _own_index_query(boundary, values, k)  # one statement: the index is known
        if own is not None:
            return own
        # Short of k, it is not asked twice; found gone, it was forgotten and is made again.
        known = boundary_index_known_online(executor, boundary_id)
    if settings.boundary_indexes and not known:
        cap = max(settings.exact_max_entries, k) + 1
        sizes = executor.read("record/search_vector_sizes", boundary_id=boundary_id, cap=cap)[0]
        if int(sizes["embedded"]) >= cap:
            own = _own_index_search(boundary, values, k, create=not read_only)
            if own is not None:
                return own
    rows = executor.read("record/search_vector_exact", boundary_id=boundary_id, vector=values, k=k)
    return VectorSearch(_hits(rows), "exact", 0)


def _own_index_search(
    boundary: Boundary, values: list[float], k: int, *, create: bool = True
) -> VectorSearch | None:
    """The search through the boundary's own vector index, or ``None`` while it cannot answer
    (created now if absent and ``create``: ``kg_context/record/vector_index.py``) or answered
    short of ``k`` (still filling): the caller then ranks the boundary exactly."""
    executor, boundary_id = boundary.executor, boundary.id
    if create:
        dimensions = boundary.settings.embedding.dimensions
        state = ensure_boundary_index(executor, boundary_id, dimensions)
    else:
        state = boundary_index_state(executor, boundary_id)
    return _own_index_query(boundary, values, k) if state is BoundaryIndex.ONLINE else None


def _own_index_query(boundary: Boundary, values: list[float], k: int) -> VectorSearch | None:
    """Ask the boundary's own (online) index; ``None`` when it answered short of ``k`` or was
    found gone (an operator dropped it: forgotten, so the next search makes it again)."""
    executor, boundary_id = boundary.executor, boundary.id
    candidates = max(_MIN_CANDIDATES, _OWN_INDEX_MARGIN * k)
    try:
        rows = _hits(
            executor.read(
                "record/search_vector_boundary",
                name=boundary_vector_label(boundary_id),
                candidates=candidates,
                vector=values,
                boundary_id=boundary_id,
                k=k,
            )
        )
    except QueryError:
        forget_boundary_index(executor, boundary_id)
        if boundary_index_state(executor, boundary_id) is BoundaryIndex.ONLINE:
            raise  # the index is there: the failure is something else, and is the caller's
        return None
    return VectorSearch(rows, "boundary-index", candidates) if len(rows) >= k else None


def search_record(
    boundary: Boundary,
    text: str,
    k: int = 10,
    embedder: TextEncoder | None = None,
    *,
    read_only: bool = False,
) -> list[RecordHit]:
    """The ``k`` best entries of the boundary's record for ``text`` (fulltext and vector, each
    exact per boundary), best first, each tagged with its set, status, residency and newest
    superseder. ``read_only``: nothing is written, not even the boundary's own vector index
    (``vector_search``)."""
    executor, boundary_id = boundary.executor, boundary.id
    if k < 1:
        raise InputValidationError("k must be at least 1", boundary_id=boundary_id)
    if not text.strip():
        raise InputValidationError("a record search needs some text", boundary_id=boundary_id)
    fulltext_rows: list[Record] = []
    query = boundary_fulltext_query(boundary_id, text)
    if query is not None:
        fulltext_rows = _hits(
            executor.read("record/search_fulltext", query=query, boundary_id=boundary_id, k=k)
        )
    embedder = embedder or get_embedder(boundary.settings.embedding)
    vector_rows = vector_search(boundary, embedder.encode([text])[0], k, read_only=read_only).rows
    fused: dict[str, float] = {}
    sources: dict[str, set[str]] = {}
    rows_by_id: dict[str, Record] = {}
    for source, rows in (("fulltext", fulltext_rows), ("vector", vector_rows)):
        for rank, row in enumerate(rows, start=1):
            entry_id = str(row["entry_id"])
            fused[entry_id] = fused.get(entry_id, 0.0) + 1.0 / (_RRF_K + rank)
            sources.setdefault(entry_id, set()).add(source)
            rows_by_id.setdefault(entry_id, row)
    ranked = sorted(fused, key=lambda entry_id: (-fused[entry_id], entry_id))[:k]
    hits = []
    for entry_id in ranked:
        row = rows_by_id[entry_id]
        found = sources[entry_id]
        matched: MatchedBy = (
            "both" if len(found) == 2 else ("fulltext" if "fulltext" in found else "vector")
        )
        hits.append(
            RecordHit(
                entry_id=entry_id,
                key=str(row["key"]),
                set_id=str(row["set_id"]),
                set_seq=int(row["set_seq"]),
                status=str(row["status"]),
                resident=bool(row["resident"]),
                superseded_by=row["superseded_by"],
                score=fused[entry_id],
                matched_by=matched,
            )
        )
    return hits
