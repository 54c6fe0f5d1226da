"""A boundary's own vector index: what makes a large boundary's vector search flat in the size of
the database. Only ``record/write_embeddings`` labels a boundary's own entries; the embedding that
takes a boundary past the exact bound creates the index, and the search uses it once it is online.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from enum import StrEnum

from kg_context.db.executor import QueryExecutor
from kg_context.errors import QueryError

__all__ = [
    "BoundaryIndex",
    "boundary_index_known_online",
    "boundary_index_state",
    "boundary_vector_label",
    "ensure_boundary_index",
    "forget_boundary_index",
]

_PREFIX = "Vector_"
_LABEL_BATCH = 10_000
_PROCEDURE_MISSING = "Neo.ClientError.Procedure.ProcedureNotFound"
# The indexes an executor has seen online, so that a search through one costs one statement (an
# index is only ever removed by an operator; a search that finds it gone forgets it here).
_ONLINE: weakref.WeakKeyDictionary[object, set[str]] = weakref.WeakKeyDictionary()
_ONLINE_LOCK = threading.Lock()


class BoundaryIndex(StrEnum):
    """Where a boundary's own vector index stands."""

    ABSENT = "absent"
    POPULATING = "populating"
    ONLINE = "online"
    FAILED = "failed"
    UNSUPPORTED = "unsupported"


def boundary_vector_label(boundary_id: str) -> str:
    """The label every embedded entry of the boundary carries (and its index's name)."""
    return _PREFIX + hashlib.sha256(boundary_id.encode("utf-8")).hexdigest()[:24]


def boundary_index_known_online(executor: QueryExecutor, boundary_id: str) -> bool:
    """Whether this executor has seen the boundary's own index online (no statement run)."""
    with _ONLINE_LOCK:
        return boundary_vector_label(boundary_id) in _ONLINE.get(executor, set())


def forget_boundary_index(executor: QueryExecutor, boundary_id: str) -> None:
    """Forget that the boundary's index was seen online (a search found it gone)."""
    with _ONLINE_LOCK:
        _ONLINE.get(executor, set()).discard(boundary_vector_label(boundary_id))


def boundary_index_state(executor: QueryExecutor, boundary_id: str) -> BoundaryIndex:
    """Whether the boundary's own vector index exists, and whether it can answer."""
    name = boundary_vector_label(boundary_id)
    rows = executor.read("record/boundary_vector_index_state", name=name)
    if not rows:
        return BoundaryIndex.ABSENT
    state = str(rows[0]["state"])
    if state == "ONLINE":
        with _ONLINE_LOCK:
            _ONLINE.setdefault(executor, set()).add(name)
        return BoundaryIndex.ONLINE
    return BoundaryIndex.FAILED if state == "FAILED" else BoundaryIndex.POPULATING


def ensure_boundary_index(
    executor: QueryExecutor, boundary_id: str, dimensions: int
) -> BoundaryIndex:
    """Label the boundary's embedded entries that lack its vector label, then create its own
    vector index unless it exists; returns the index's state (``POPULATING`` just after
    creation, ``UNSUPPORTED`` when the server has no procedure to create it). Idempotent."""
    state = boundary_index_state(executor, boundary_id)
    if state is not BoundaryIndex.ABSENT:
        return state
    label = boundary_vector_label(boundary_id)  # the index is named after its label
    while True:
        rows = executor.write(
            "record/label_embedded_entries",
            boundary_id=boundary_id,
            label=label,
            batch=_LABEL_BATCH,
        )
        if not rows or int(rows[0]["labelled"]) < _LABEL_BATCH:
            break
    try:
        executor.write(
            "record/create_boundary_vector_index",
            name=label,
            label=label,
            dimensions=dimensions,
        )
    except QueryError as err:
        if err.code == _PROCEDURE_MISSING:
            return BoundaryIndex.UNSUPPORTED
        # Another search created it between the read and the creation: fine if it is there now.
        state = boundary_index_state(executor, boundary_id)
        if state is BoundaryIndex.ABSENT:
            raise
        return state
    return boundary_index_state(executor, boundary_id)
