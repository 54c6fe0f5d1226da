"""Search over the record: fulltext and vector, filtered to one boundary, status-tagged.

The record is never the judge: search proposes candidates (with the set that committed each one,
its status, its residency and what superseded it) and changes nothing. ``embed_pending`` is the
one record-side step here: it adds ``Entry.embedding`` and ``Entry.embedding_model`` to entries
that lack them (a mechanical, versioned derivation); it never touches status or residency.

Ranking fuses the two result lists by reciprocal rank (``1/(60 + rank)`` per list, summed):
the two scores live on different scales (Lucene's is unbounded), ranks do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from kg_context.db.executor import Record
from kg_context.errors import InputValidationError
from kg_context.gate.boundary import Boundary
from kg_context.text.embeddings import Embedder, get_embedder

__all__ = ["RecordHit", "embed_pending", "fulltext_query", "search_record"]

MatchedBy = Literal["fulltext", "vector", "both"]

# Reciprocal-rank-fusion constant (the usual 60) and how many index hits to read per wanted hit
# (the indexes span every boundary; the boundary filter applies after the index lookup).
_RRF_K = 60
_CANDIDATES_PER_HIT = 20
_MAX_CANDIDATES = 10_000
_WORD = re.compile(r"\w+", re.UNICODE)
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT", "TO"})


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

    def tag(self) -> str:
        """``matched in set 17, retired, superseded by e-31`` (the status tag recall shows)."""
        text = f"matched in set {self.set_seq}, {self.status}"
        if self.superseded_by:
            text += f", superseded by {self.superseded_by}"
        return text


def fulltext_query(text: str) -> str:
    """A Lucene query matching any word of ``text``, with every operator character neutralised."""
    words = [w.lower() if w in _LUCENE_OPERATORS else w for w in _WORD.findall(text)]
    return " ".join(words)


def embed_pending(
    boundary: Boundary,
    embedder: Embedder | None = None,
    batch: int = 256,
) -> int:
    """Embed ``key: body`` of every entry of the boundary that had no embedding when the call
    began (its sets at or below the boundary's seq then); returns how many entries were embedded
    (with the engine's embedding model unless ``embedder``).

    Entries committed meanwhile wait for the next call: it used to loop until nothing was left,
    so a write stream faster than the model kept a ``recall`` from ever returning (the soak's
    reader did 3 rounds in 30 minutes)."""
    if batch < 1:
        raise InputValidationError("batch must be at least 1")
    embedder = embedder or get_embedder(boundary.settings.embedding)
    executor, boundary_id = boundary.executor, boundary.id
    up_to_seq = int(boundary.state()["seq"] or 0)
    total = 0
    while True:
        rows = executor.read(
            "record/pending_embeddings", boundary_id=boundary_id, batch=batch, up_to_seq=up_to_seq
        )
        if not rows:
            return total
        vectors = embedder.encode([f"{r['key']}: {r['body']}" for r in rows])
        payload = [
            {"id": r["id"], "embedding": [float(x) for x in v]}
            for r, v in zip(rows, vectors, strict=True)
        ]
        written = executor.write(
            "record/write_embeddings",
            boundary_id=boundary_id,
            rows=payload,
            model=embedder.settings.model,
        )
        total += int(written[0]["written"]) if written else 0
        if len(rows) < batch:
            return total


def _hits(rows: list[Record]) -> list[Record]:
    return [r for r in rows if r["entry_id"] is not None]


def search_record(
    boundary: Boundary,
    text: str,
    k: int = 10,
    embedder: Embedder | None = None,
) -> list[RecordHit]:
    """The ``k`` best entries of the boundary's record for ``text`` (fulltext and vector index),
    best first, each tagged with its set, status, residency and newest superseder."""
    executor, boundary_id = boundary.executor, boundary.id
    if k < 1:
        raise InputValidationError("k must be at least 1")
    if not text.strip():
        raise InputValidationError("a record search needs some text")
    candidates = min(_MAX_CANDIDATES, max(k * _CANDIDATES_PER_HIT, 100))
    fulltext_rows: list[Record] = []
    query = fulltext_query(text)
    if query:
        fulltext_rows = _hits(
            executor.read(
                "record/search_fulltext",
                query=query,
                candidates=candidates,
                boundary_id=boundary_id,
                k=k,
            )
        )
    embedder = embedder or get_embedder(boundary.settings.embedding)
    vector = [float(x) for x in embedder.encode([text])[0]]
    vector_rows = _hits(
        executor.read(
            "record/search_vector",
            candidates=candidates,
            vector=vector,
            boundary_id=boundary_id,
            k=k,
        )
    )
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
