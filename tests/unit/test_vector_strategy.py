"""The vector half's pure logic: unit vectors, and a boundary's own index on a server that cannot
make one."""

from __future__ import annotations

import math

from kg_context.errors import QueryError
from kg_context.record.search import unit
from kg_context.record.vector_index import (
    BoundaryIndex,
    boundary_vector_label,
    ensure_boundary_index,
)


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


def test_a_server_without_the_procedure_leaves_the_boundary_ranked_exactly() -> None:
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
