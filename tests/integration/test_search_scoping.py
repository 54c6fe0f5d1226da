"""Retrieval is exact per boundary whatever the other boundaries hold.

Boundary A holds one entry that matches the query; boundary B, in the same database, holds 1,000
entries that match it more closely (by words and by meaning). A global top-k filtered afterwards
would leave A's recall and history search empty. The fulltext query filters inside the index and
the vector half ranks a boundary exactly, or asks the boundary's own vector index (there is no
index shared by the boundaries to crowd): A's entry comes first either way.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence

import neo4j
import numpy as np
import numpy.typing as npt
import pytest

from kg_context.db.catalog import default_catalog
from kg_context.engine import Engine
from kg_context.record.history import search
from kg_context.record.search import embed_pending, vector_search
from kg_context.residency.recall import recall
from kg_context.settings import EmbeddingSettings, EngineSettings, SearchSettings
from kg_context.text.embeddings import get_embedder
from tests.factories import entry, proposal

QUERY = "graph database for the payments ledger"
CLOSER = "graph database for the payments ledger, variant {i}"
MATCHING = "the payments ledger could live in a graph database"


@pytest.fixture(scope="module")
def engine(embedding_engine: Engine) -> Engine:
    """Searches by meaning of what was just committed: the commits embed."""
    return embedding_engine


@pytest.fixture(scope="module")
def crowded(engine: Engine) -> Iterator[str]:
    """Boundary B: 1,000 entries closer to QUERY than A's entry, embedded."""
    b = f"test-crowd-{uuid.uuid4().hex}"
    boundary = engine.boundary(b)
    proposals = [
        proposal(
            b,
            *[
                entry(cls="fact", key=f"ledger-{i}-{j}", body=CLOSER.format(i=10 * i + j))
                for j in range(10)
            ],
            targets=[f"t{i}"],
            attributes={"source": "test"},
        )
        for i in range(100)
    ]
    for p in proposals:
        p["entries"] = [{**e, "attributes": {"source": "test"}} for e in p["entries"]]
        del p["attributes"]
    decisions = boundary.commit_many(proposals)
    assert [d.outcome for d in decisions] == ["commit"] * 100
    assert embed_pending(boundary) == 0  # the commits embedded what they wrote
    yield b


def _small_a(engine: Engine, boundary_id: str, unrelated: int = 0) -> str:
    boundary = engine.boundary(boundary_id)
    target = f"{boundary_id}-ledger"
    noise = [
        entry(cls="plan", key=f"chores-{i}", body=f"water the office plants on day {i}")
        for i in range(unrelated)
    ]
    decision = boundary.commit(
        proposal(boundary_id, entry(key="ledger", body=MATCHING, id=target), *noise)
    )
    assert decision.outcome == "commit"
    return target


def test_a_boundary_with_one_match_beside_a_crowded_one_finds_it_first(
    engine: Engine, crowded: str, boundary_id: str
) -> None:
    target = _small_a(engine, boundary_id)
    a = engine.boundary(boundary_id)
    hits = recall(a, QUERY, k=10)
    assert [h.entry_id for h in hits] == [target]
    assert hits[0].matched_by == "both"
    lines = search(a, QUERY, k=10)
    assert [line.entry_id for line in lines] == [target]
    # The crowded boundary still gets its own: ten of its 1,000, none of A's.
    theirs = recall(engine.boundary(crowded), QUERY, k=10)
    assert len(theirs) == 10 and all(h.entry_id != target for h in theirs)
    vector = get_embedder().encode([QUERY])[0]
    assert vector_search(a, vector, 10).strategy == "exact"


def test_a_boundary_past_the_exact_bound_without_its_own_index_is_ranked_exactly(
    engine: Engine, crowded: str, boundary_id: str
) -> None:
    """A holds 30 entries, past an exact bound of 0, and boundary indexes are off: there is no
    index shared by the boundaries (B's 1,000 nearer entries would crowd it), so the vector
    half ranks A's own embedded entries exactly, as it does while A's own index fills."""
    target = _small_a(engine, boundary_id, unrelated=29)
    settings = EngineSettings(search=SearchSettings(exact_max_entries=0, boundary_indexes=False))
    with Engine.connect(engine.target, settings=settings, check_schema=False) as other:
        a = other.boundary(boundary_id)
        embed_pending(a)
        vector = get_embedder().encode([QUERY])[0]
        found = vector_search(a, vector, 10)
        assert found.strategy == "exact"
        assert len(found.rows) == 10
        own = {
            r["id"] for r in other.executor.read("audits/boundary_entries", boundary_id=boundary_id)
        }
        assert len(own) == 30 and {r["entry_id"] for r in found.rows} <= own
        assert found.rows[0]["entry_id"] == target
        assert recall(a, QUERY, k=10)[0].entry_id == target
        assert search(a, QUERY, k=10)[0].entry_id == target
    names = {r["name"] for r in engine.executor.read("admin/show_indexes")}
    assert "entry_embedding_vector" not in names


def test_the_fulltext_filter_is_inside_the_index(engine: Engine, crowded: str) -> None:
    """One token per boundary: a hit of another boundary is never even ranked."""
    rows = engine.executor.read(
        "record/search_fulltext",
        query=f"+boundary_token:b{'0' * 64} +(ledger)",
        boundary_id=crowded,
        k=10,
    )
    assert rows == []


def test_recall_by_key_seeks_the_boundarys_own_entries(
    engine: Engine, driver: neo4j.Driver, crowded: str, boundary_id: str
) -> None:
    target = _small_a(engine, boundary_id)
    rows = engine.executor.read(
        "cycle/recall_by_key",
        keys=["ledger", "ledger-0-0"],
        boundary_id=boundary_id,
        exclude_statuses=[],
        limit=5,
        scratch_class="scratch",
        recall_kind="recall",
        commit_kind="commit",
    )
    assert [r["id"] for r in rows] == [target]
    summary = driver.execute_query(
        "PROFILE " + default_catalog()["cycle/recall_by_key"].text,
        keys=["ledger-0-0"],
        boundary_id=crowded,
        exclude_statuses=[],
        limit=5,
        scratch_class="scratch",
        recall_kind="recall",
        commit_kind="commit",
        database_=engine.executor.database,
    ).summary
    assert summary.profile is not None
    text = str(summary.profile)
    assert "NodeIndexSeek" in text and "boundary_id, key" in text, text


class _Unnormalized:
    """An encoder whose vectors are not unit length (each scaled by a different factor)."""

    settings = EmbeddingSettings(model="test-unnormalized")

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = []
        for text in texts:
            rng = np.random.default_rng(sum(map(ord, text)))
            rows.append(rng.standard_normal(384) * (1 + len(text) % 7))
        return np.asarray(rows, dtype=np.float32)


def test_the_exact_path_ranks_by_cosine_whatever_the_encoders_lengths(
    engine: Engine, boundary_id: str
) -> None:
    """The exact statement ranks by Euclidean closeness, which orders as cosine only for unit
    vectors: embed_pending stores unit vectors and the query is normalized, so an encoder that
    returns vectors of any length still gets the cosine order."""
    deferred = EngineSettings(embedding=EmbeddingSettings(on_commit=False))
    bodies = [f"note {i} {'x' * i}" for i in range(12)]
    with Engine.connect(engine.target, settings=deferred, check_schema=False) as other:
        decision = other.boundary(boundary_id).commit(  # it leaves the embedding to the test
            proposal(boundary_id, *[entry(key=f"n{i}", body=b) for i, b in enumerate(bodies)])
        )
    assert decision.outcome == "commit"
    boundary = engine.boundary(boundary_id)
    encoder = _Unnormalized()
    assert embed_pending(boundary, encoder) == 12
    rows = engine.executor.read(
        "bench/scale_boundary_embeddings", boundary_id=boundary_id, skip=0, limit=100
    )
    assert len(rows) == 12
    assert all(np.isclose(np.linalg.norm(r["embedding"]), 1.0, atol=1e-5) for r in rows)
    query = encoder.encode(["a query of some length"])[0] * 5
    originals = encoder.encode([f"n{i}: {b}" for i, b in enumerate(bodies)])
    cosines = originals @ query / (np.linalg.norm(originals, axis=1) * np.linalg.norm(query))
    by_key = {f"n{i}": i for i in range(12)}
    found = vector_search(boundary, query, 5)
    assert found.strategy == "exact"
    keys = [str(r["key"]) for r in found.rows]
    assert [by_key[k] for k in keys] == list(np.argsort(-cosines, kind="stable")[:5])
