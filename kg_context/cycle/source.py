"""Where the buffer's graph candidates come from: batched, read-only Cypher over one boundary.

Only standing entries are read as themselves (``CYCLE_INELIGIBLE`` is every non-standing
status). A non-standing entry (superseded, retired, invalidated, explored) reaches the cycle only
as a recall copy the gate admitted (``RecallGate``, which ``recall.admit`` implements for a
boundary handle): a scratch entry of a ratified recall set, read with a ``RecallTag`` built from
the graph (its original's status now, the admitting set and its receipt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from kg_context.cycle.models import EntryRecord, RecallTag
from kg_context.db.executor import QueryExecutor
from kg_context.errors import DatabaseError
from kg_context.gate.pure.sink import GateDecisionLike
from kg_context.vocabulary import (
    CYCLE_INELIGIBLE,
    EntryClass,
    ReceiptKind,
    SetKind,
    as_values,
)

__all__ = ["EntrySource", "GraphEntrySource", "NonStanding", "RecallAdmission", "RecallGate"]


@dataclass(frozen=True, slots=True)
class NonStanding:
    """A non-standing entry a query named, and its standing recall copy if one is held."""

    id: str
    key: str
    status: str
    copy_id: str | None


class EntrySource(Protocol):
    """Reads entries for the preconscious buffer; never writes."""

    def load_linked(self, ids: Sequence[str]) -> list[EntryRecord]: ...

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[EntryRecord]: ...

    def non_standing(self, ids: Sequence[str]) -> list[NonStanding]: ...

    def statuses(self, ids: Sequence[str]) -> dict[str, str]: ...


class RecallAdmission(Protocol):
    """What the cycle reads from a recall admission (``kg_context.residency.recall.Admission``)."""

    @property
    def decision(self) -> GateDecisionLike: ...

    @property
    def copies(self) -> dict[str, str]: ...


@runtime_checkable
class RecallGate(Protocol):
    """Admits recall copies of record entries through the gate (a boundary handle's ``admit``,
    i.e. ``recall.admit``): one recall set, one receipt."""

    def admit(self, entry_ids: Sequence[str], *, writer_id: str) -> RecallAdmission: ...


def _recall(row: dict[str, Any]) -> RecallTag | None:
    tag = row.get("recall")
    if tag is None:
        return None
    return RecallTag(
        original_id=str(tag["original_id"]),
        original_class=str(tag["original_class"]),
        original_status=str(tag["original_status"]),
        original_set_seq=int(tag["original_set_seq"] or 0),
        superseded_by=tag["superseded_by"],
        admitted_in=str(tag["admitted_in"]),
        receipt_id=tag["receipt_id"],
    )


def _record(row: dict[str, Any]) -> EntryRecord:
    try:
        return EntryRecord(
            id=str(row["id"]),
            key=str(row["key"]),
            body=str(row["body"]),
            entry_class=str(row["class"]),
            status=str(row["status"]),
            linked_ids=tuple(str(i) for i in row["linked_ids"]),
            recall=_recall(row),
        )
    except KeyError as err:
        raise DatabaseError(f"an entry row lacks {err.args[0]!r}: {sorted(row)}") from err


class GraphEntrySource:
    """Standing entries of one boundary, status-tagged; recall copies tagged with their
    original."""

    def __init__(self, executor: QueryExecutor, boundary_id: str) -> None:
        self.executor = executor
        self.boundary_id = boundary_id
        self.exclude_statuses = as_values(CYCLE_INELIGIBLE)

    def load_linked(self, ids: Sequence[str]) -> list[EntryRecord]:
        """The standing entries with these ids, in one read (ids not found or not standing are
        absent)."""
        if not ids:
            return []
        rows = self.executor.read(
            "cycle/load_linked",
            ids=sorted(set(ids)),
            boundary_id=self.boundary_id,
            exclude_statuses=self.exclude_statuses,
            scratch_class=EntryClass.SCRATCH.value,
            recall_kind=SetKind.RECALL.value,
            commit_kind=ReceiptKind.COMMIT.value,
        )
        return [_record(row) for row in rows]

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[EntryRecord]:
        """At most ``limit`` standing entries whose key is one of ``keys``, in one read."""
        if not keys or limit < 1:
            return []
        rows = self.executor.read(
            "cycle/recall_by_key",
            keys=sorted(set(keys)),
            boundary_id=self.boundary_id,
            exclude_statuses=self.exclude_statuses,
            limit=limit,
            scratch_class=EntryClass.SCRATCH.value,
            recall_kind=SetKind.RECALL.value,
            commit_kind=ReceiptKind.COMMIT.value,
        )
        return [_record(row) for row in rows]

    def non_standing(self, ids: Sequence[str]) -> list[NonStanding]:
        """The non-standing entries among ``ids``, each with its held recall copy (or none)."""
        if not ids:
            return []
        rows = self.executor.read(
            "cycle/non_standing_by_id",
            ids=sorted(set(ids)),
            boundary_id=self.boundary_id,
            not_standing=self.exclude_statuses,
            scratch_class=EntryClass.SCRATCH.value,
            recall_kind=SetKind.RECALL.value,
        )
        return [
            NonStanding(str(r["id"]), str(r["key"]), str(r["status"]), r["copy_id"]) for r in rows
        ]

    def statuses(self, ids: Sequence[str]) -> dict[str, str]:
        """The record status of each of ``ids`` found in the boundary (any status)."""
        if not ids:
            return {}
        rows = self.executor.read(
            "cycle/statuses", ids=sorted(set(ids)), boundary_id=self.boundary_id
        )
        return {str(r["id"]): str(r["status"]) for r in rows}
