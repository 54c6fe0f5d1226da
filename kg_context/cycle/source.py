"""Where the buffer's graph candidates come from: batched, read-only Cypher over one boundary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from kg_context.cycle.models import EntryRecord
from kg_context.db.executor import QueryExecutor
from kg_context.errors import DatabaseError
from kg_context.vocabulary import CYCLE_INELIGIBLE, as_values

__all__ = ["EntrySource", "GraphEntrySource"]


class EntrySource(Protocol):
    """Reads entries for the preconscious buffer; never writes."""

    def load_linked(self, ids: Sequence[str]) -> list[EntryRecord]: ...

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[EntryRecord]: ...


def _record(row: dict[str, Any]) -> EntryRecord:
    try:
        return EntryRecord(
            id=str(row["id"]),
            key=str(row["key"]),
            body=str(row["body"]),
            entry_class=str(row["class"]),
            status=str(row["status"]),
            linked_ids=tuple(str(i) for i in row["linked_ids"]),
        )
    except KeyError as err:
        raise DatabaseError(f"an entry row lacks {err.args[0]!r}: {sorted(row)}") from err


class GraphEntrySource:
    """Entries of one boundary that are neither retired nor invalidated, status-tagged."""

    def __init__(self, executor: QueryExecutor, boundary_id: str) -> None:
        self.executor = executor
        self.boundary_id = boundary_id
        self.exclude_statuses = as_values(CYCLE_INELIGIBLE)

    def load_linked(self, ids: Sequence[str]) -> list[EntryRecord]:
        """The entries with these ids, in one read (ids not found or excluded are absent)."""
        if not ids:
            return []
        rows = self.executor.read(
            "cycle/load_linked",
            ids=sorted(set(ids)),
            boundary_id=self.boundary_id,
            exclude_statuses=self.exclude_statuses,
        )
        return [_record(row) for row in rows]

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[EntryRecord]:
        """At most ``limit`` entries whose key is one of ``keys``, in one read."""
        if not keys or limit < 1:
            return []
        rows = self.executor.read(
            "cycle/recall_by_key",
            keys=sorted(set(keys)),
            boundary_id=self.boundary_id,
            exclude_statuses=self.exclude_statuses,
            limit=limit,
        )
        return [_record(row) for row in rows]
