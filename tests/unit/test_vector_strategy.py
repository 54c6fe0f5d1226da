"""The vector half's pure logic: the index path's first request, unit vectors, and a boundary's
own index on a server that cannot make one."""

from __future__ import annotations

import math

from kg_context.errors import QueryError
from kg_context.record.search import first_request, unit
from kg_context.record.vector_index import (
    BoundaryIndex,
    boundary_vector_label,
    ensure_boundary_index,
)


def test_the_first_request_expects_twice_k_of_the_boundarys_entries() -> None:
    # A boundary holding 1% of a database of 100,000 entries: 2 x 10 / 0.01 = 2,000.
    assert first_request(indexed=100_000, entries=1_000, k=10) == 2_000
    # A tiny share asks for more, never more than the whole index.
    assert first_request(indexed=100_000, entries=30, k=10) == math.ceil(20 * 100_000 / 30)
    assert first_request(indexed=5_000, entries=1, k=10) == 5_000
    # A large share still asks for at least 100 neighbours (the index's own floor).
    assert first_request(indexed=1_000, entries=900, k=10) == 100


def test_the_index_path_is_chosen_only_above_sqrt_2kn() -> None:
    """The exact path reads n entries; when n exceeds the first request C = 2kN/n the index
    path is taken, and then C < sqrt(2kN): either way one search reads at most sqrt(2kN)
    (above the exact floor)."""
    indexed, k = 5_000_000, 10
    bound = math.sqrt(2 * k * indexed)
    for entries in (2_000, 9_000, 10_000, 11_000, 50_000, 1_000_000):
        candidates = first_request(indexed, entries, k)
        read = entries if entries <= candidates else candidates
        assert read <= bound + 1, (entries, candidates)


def test_unit_scales_to_length_one_and_leaves_zero_alone() -> None:
    assert unit([3.0, 4.0]) == [0.6, 0.8]
    assert unit([0.0, 0.0]) == [0.0, 0.0]
    assert math.isclose(math.fsum(x * x for x in unit([1, 2, 3, 4])), 1.0)


class _NoProcedure:
    """An executor for a server without db.index.vector.createNodeIndex (pure logic test)."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def read(self, name: str, /, **params: object) -> list[dict[str, object]]:
        return []

    def write(self, name: str, /, **params: object) -> list[dict[str, object]]:
        self.written.append(name)
        if name == "record/create_boundary_vector_index":
            raise QueryError(
                "no such procedure", code="Neo.ClientError.Procedure.ProcedureNotFound"
            )
        return [{"labelled": 0}]


def test_a_server_without_the_procedure_leaves_the_boundary_on_the_shared_strategies() -> None:
    executor = _NoProcedure()
    state = ensure_boundary_index(executor, "b", 384)  # type: ignore[arg-type]
    assert state is BoundaryIndex.UNSUPPORTED
    assert executor.written == [
        "record/label_embedded_entries",
        "record/create_boundary_vector_index",
    ]


def test_the_label_is_the_boundarys_own_and_a_valid_identifier() -> None:
    a, b = boundary_vector_label("team-a"), boundary_vector_label("team-b")
    # The audit status_label_drift recognises an index's label by this prefix.
    assert a != b and a.isidentifier() and a.startswith("Vector_")
