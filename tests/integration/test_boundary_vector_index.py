"""A boundary past the exact bound gets a vector index of its own (retrieval exact per boundary,
and flat in the size of the database).

The bound is lowered to 5 entries so a 40-entry boundary is "large". The embedding that takes
the boundary past the bound creates its index (a vector search that finds none creates it too,
labelling what was embedded before); searches rank the boundary exactly while the index fills;
once it is online, they go through it and return the boundary's exact top k by
cosine, never another boundary's entry. The engines here leave embedding to ``embed_pending``
(``on_commit=False``), so each test says when it happens.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from kg_context.engine import Engine
from kg_context.record.search import embed_pending, vector_search
from kg_context.record.vector_index import (
    BoundaryIndex,
    boundary_index_state,
    boundary_vector_label,
    ensure_boundary_index,
)
from kg_context.settings import EmbeddingSettings, EngineSettings, SearchSettings
from kg_context.text.embeddings import get_embedder
from tests.factories import entry, proposal

TOPICS = ["payments ledger", "graph database", "office plants", "release notes", "on-call rota"]


def _fill(engine: Engine, boundary_id: str, sets: int = 8) -> None:
    boundary = engine.boundary(boundary_id)
    proposals = [
        proposal(
            boundary_id,
            *[entry(key=f"n{s}-{j}", body=f"{TOPICS[(s + j) % 5]} note {s} {j}") for j in range(5)],
            targets=[f"t{s}"],
        )
        for s in range(sets)
    ]
    assert [d.outcome for d in boundary.commit_many(proposals)] == ["commit"] * sets


def _deferred(engine: Engine, search: SearchSettings | None = None) -> Engine:
    settings = EngineSettings(
        search=search or SearchSettings(), embedding=EmbeddingSettings(on_commit=False)
    )
    return Engine.connect(engine.target, settings=settings, check_schema=False)


@pytest.fixture()
def small_bound(engine: Engine) -> Iterator[Engine]:
    with _deferred(engine, SearchSettings(exact_max_entries=5)) as other:
        yield other


@pytest.fixture()
def deferred(engine: Engine) -> Iterator[Engine]:
    with _deferred(engine) as other:
        yield other


def _truth(engine: Engine, boundary_id: str, vector: np.ndarray, k: int) -> list[str]:
    rows = engine.executor.read(
        "bench/scale_boundary_embeddings", boundary_id=boundary_id, skip=0, limit=1_000
    )
    matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
    query = vector / np.linalg.norm(vector)
    return [str(rows[i]["id"]) for i in np.argsort(-(matrix @ query), kind="stable")[:k]]


def test_a_large_boundary_is_searched_through_its_own_index_exactly(
    small_bound: Engine, boundary_id: str
) -> None:
    engine = small_bound
    _fill(engine, boundary_id)
    boundary = engine.boundary(boundary_id)
    assert boundary_index_state(engine.executor, boundary_id) is BoundaryIndex.ABSENT
    vector = get_embedder().encode(["where does the payments ledger live"])[0]
    assert vector_search(boundary, vector, 10, read_only=True).rows == []  # nothing embedded yet
    assert boundary_index_state(engine.executor, boundary_id) is BoundaryIndex.ABSENT
    assert embed_pending(boundary) == 40
    # The embedding past the bound created the index; a search answers meanwhile.
    assert boundary_index_state(engine.executor, boundary_id) is not BoundaryIndex.ABSENT
    first = vector_search(boundary, vector, 10, read_only=True)
    assert len(first.rows) == 10
    engine.executor.write("admin/await_indexes", timeout_s=120)
    found = vector_search(boundary, vector, 10)
    assert found.strategy == "boundary-index"
    assert [str(r["entry_id"]) for r in found.rows] == _truth(engine, boundary_id, vector, 10)
    scores = [float(r["score"]) for r in found.rows]
    assert scores == sorted(scores, reverse=True)


def test_entries_embedded_before_the_label_are_labelled_when_the_index_is_made(
    deferred: Engine, boundary_id: str
) -> None:
    """Entries embedded by an older kg-context carry no vector label: creating the index labels
    them first, so the index covers the boundary's whole record."""
    engine = deferred
    _fill(engine, boundary_id, sets=4)
    rows = engine.executor.read(
        "record/pending_embeddings", boundary_id=boundary_id, batch=100, up_to_seq=10
    )
    vectors = get_embedder().encode([f"{r['key']}: {r['body']}" for r in rows])
    engine.executor.write(
        "record/write_embeddings",
        boundary_id=boundary_id,
        rows=[{"id": r["id"], "embedding": v.tolist()} for r, v in zip(rows, vectors, strict=True)],
        model="older",
        label="LegacyWithoutBoundaryLabel",
    )
    label = boundary_vector_label(boundary_id)
    assert ensure_boundary_index(engine.executor, boundary_id, 384) is not BoundaryIndex.ABSENT
    engine.executor.write("admin/await_indexes", timeout_s=120)
    got = engine.executor.read(
        "record/search_vector_boundary",
        name=label,
        candidates=100,
        vector=[float(x) for x in vectors[0] / np.linalg.norm(vectors[0])],
        boundary_id=boundary_id,
        k=100,
    )
    assert len(got) == 20
    # Idempotent: a second call finds the index and changes nothing.
    assert ensure_boundary_index(engine.executor, boundary_id, 384) is BoundaryIndex.ONLINE


def test_another_boundarys_entry_never_answers_for_this_one(
    small_bound: Engine, boundary_id: str
) -> None:
    """Only write_embeddings labels an entry, with its own boundary's label; and should an entry
    of boundary B ever carry A's label, A's search still keeps to A's entries (the guard)."""
    engine = small_bound
    other = f"{boundary_id}-other"
    _fill(engine, boundary_id)
    _fill(engine, other, sets=2)
    assert embed_pending(engine.boundary(boundary_id)) == 40
    assert embed_pending(engine.boundary(other)) == 10
    theirs = engine.executor.read(
        "bench/scale_boundary_embeddings", boundary_id=other, skip=0, limit=100
    )
    # The other boundary's entries carry their own label, not A's.
    engine.executor.write(
        "record/write_embeddings",
        boundary_id=other,
        rows=[{"id": r["id"], "embedding": r["embedding"]} for r in theirs],
        model="again",
        label=boundary_vector_label(boundary_id),
    )
    vector = np.asarray(theirs[0]["embedding"], dtype=np.float32)
    ensure_boundary_index(engine.executor, boundary_id, 384)
    engine.executor.write("admin/await_indexes", timeout_s=120)
    found = vector_search(engine.boundary(boundary_id), vector, 10)
    assert found.strategy == "boundary-index"
    own = {
        f"{r['id']}"
        for r in engine.executor.read(
            "bench/scale_boundary_embeddings", boundary_id=boundary_id, skip=0, limit=100
        )
    }
    assert {str(r["entry_id"]) for r in found.rows} <= own
    assert [str(r["entry_id"]) for r in found.rows] == _truth(engine, boundary_id, vector, 10)


def test_a_dropped_index_is_forgotten_and_made_again(small_bound: Engine, boundary_id: str) -> None:
    """A search remembers an online index (one statement per search after that); if an operator
    drops it, the next search ranks the boundary exactly and makes it again."""
    engine = small_bound
    _fill(engine, boundary_id)
    boundary = engine.boundary(boundary_id)
    embed_pending(boundary)
    ensure_boundary_index(engine.executor, boundary_id, 384)
    engine.executor.write("admin/await_indexes", timeout_s=120)
    vector = get_embedder().encode(["release notes for the on-call rota"])[0]
    assert vector_search(boundary, vector, 5).strategy == "boundary-index"
    engine.executor.write("admin/drop_index", name=boundary_vector_label(boundary_id))
    assert boundary_index_state(engine.executor, boundary_id) is BoundaryIndex.ABSENT
    fallback = vector_search(boundary, vector, 5)
    assert [str(r["entry_id"]) for r in fallback.rows] == _truth(engine, boundary_id, vector, 5)
    assert boundary_index_state(engine.executor, boundary_id) is not BoundaryIndex.ABSENT
    engine.executor.write("admin/await_indexes", timeout_s=120)
    assert vector_search(boundary, vector, 5).strategy == "boundary-index"
