"""What the gate reads before it decides: a snapshot of the boundary and the entries a batch of
sets refers to (pure data, loaded by the store inside the locked commit transaction)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg_context.vocabulary import LIVE_STATUSES

__all__ = ["BoundaryState", "EntryState", "Snapshot"]


@dataclass(frozen=True, slots=True)
class EntryState:
    id: str
    boundary_id: str
    key: str
    status: str
    entry_class: str
    writer_id: str | None
    resident: bool
    tokens: int = 0
    requires_out: int = 0
    # Standing entries that hold this one through a hard REQUIRES edge (residency predicates).
    hard_held_by: tuple[str, ...] = ()
    # For an at-risk entry: the failed ancestors its at-risk transitions recorded
    # (``Transition.failed_ancestors``); revalidation must reference one (WEAK_REVALIDATION).
    failed_ancestors: tuple[str, ...] = ()

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES


@dataclass(slots=True)
class BoundaryState:
    id: str
    seq: int
    verse: str
    constitution_version: str
    task_horizon: int | None
    live_count: int
    requires_count: int
    last_set_id: str | None
    committed_tokens: int = 0
    resident_tokens: int = 0


@dataclass(slots=True)
class Snapshot:
    """The boundary, the referenced entries (by id), and the adoption receipts that exist."""

    boundary: BoundaryState
    entries: dict[str, EntryState] = field(default_factory=dict)
    adoption_receipts: set[str] = field(default_factory=set)
    halt_counts: dict[str, int] = field(default_factory=dict)  # set id -> halts so far
