"""What the gate reads before it decides: a snapshot of the boundary and the entries a batch of
sets refers to (pure data, loaded by the store inside the locked commit transaction)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kg_context.vocabulary import (
    LIVE_STATUSES,
    STANDING_STATUSES,
    EntryClass,
    JustificationCase,
)

__all__ = [
    "AdoptionState",
    "ClaimFacts",
    "CopySource",
    "EntryState",
    "Holder",
    "LockedBoundary",
    "OneUseCopy",
    "RetiredSource",
    "Revoked",
    "SetFootprint",
    "Snapshot",
    "follows_its_sources",
    "own_work",
]


def own_work(entry: Mapping[str, Any], writer_id: str) -> bool:
    """Whether an entry (a row with ``writer_id`` and ``set_writers``) is ``writer_id``'s own
    work: it wrote the entry, or co-wrote the set that created it. The czar never compacts its
    own work (the gate's ``czar_independence``, the czar's plan, the ``czar_independence``
    audit)."""
    return entry.get("writer_id") == writer_id or writer_id in (entry.get("set_writers") or ())


# The cases by which the czar's own interfaces follow their sources: an interface is a mechanical
# projection of what standing dependents need from an entry that left, not a judgment, so it
# leaves when nothing reachable holds it any more and comes back when something does (the gate
# re-checks either case against the graph, ``czar_cases_shown``). Everything else the czar wrote
# stays out of its reach.
_PROJECTION_CASES = frozenset({JustificationCase.UNREACHABLE, JustificationCase.REACHABLE})


def follows_its_sources(entry_class: str | None, case: JustificationCase | None) -> bool:
    """Whether a czar may move its own entry by ``case``: only an interface, only by the
    unreachable or reachable case."""
    return entry_class == EntryClass.INTERFACE.value and case in _PROJECTION_CASES


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
    # Standing entries that require this one through a hard or soft edge, with its lease end:
    # what ``[roots] successors`` passes to the entry that supersedes it (named in the receipt).
    required_by: tuple[Holder, ...] = ()
    # For an at-risk entry: the failed ancestors its at-risk transitions recorded
    # (``Transition.failed_ancestors``); revalidation must reference one (WEAK_REVALIDATION).
    failed_ancestors: tuple[str, ...] = ()
    # The set that created it (an ordered sequence of sets: FRAGMENTATION's ancestry).
    set_id: str | None = None
    # Every writer of that set (a set may join several writers' proposals).
    set_writers: tuple[str, ...] = ()
    # Its verse (read for entries of other boundaries: what an adoption receipt adopts).
    verse: str | None = None

    def work_of(self, writer_id: str) -> bool:
        """Whether ``writer_id`` wrote this entry or co-wrote the set that created it."""
        return own_work({"writer_id": self.writer_id, "set_writers": self.set_writers}, writer_id)

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    @property
    def standing(self) -> bool:
        return self.status in STANDING_STATUSES


@dataclass(frozen=True, slots=True)
class AdoptionState:
    """An operator's adoption receipt as the record holds it: the boundary it was issued for,
    the keys it covers, how many uses it allows and has had, until which seq of its boundary it
    is valid, and that boundary's seq now."""

    id: str
    boundary_id: str
    keys: frozenset[str]
    uses: int
    used: int
    valid_until_seq: int | None
    boundary_seq: int
    # The verse of the material it adopts, where the operator stated it (``None``: any verse).
    material_verse: str | None = None

    def problem(self, key: str, at_seq: int, verse: str | None) -> str | None:
        """Why the receipt does not admit ``key`` (material of ``verse``, where known) for a use
        at ``at_seq`` (``None``: it does)."""
        if key not in self.keys:
            return f"covers keys {sorted(self.keys)}, not {key!r}"
        if self.material_verse is not None and verse is not None and verse != self.material_verse:
            return f"adopts {self.material_verse} material, not {verse}"
        if self.used >= self.uses:
            return f"is used up ({self.used} of {self.uses} use(s))"
        if self.valid_until_seq is not None and at_seq > self.valid_until_seq:
            return f"expired at seq {self.valid_until_seq} of boundary {self.boundary_id}"
        return None


@dataclass(frozen=True, slots=True)
class Revoked:
    """An operator's revocation receipt as the gate reads it: which receipt, by whom, at which
    seq of the boundary that recorded it."""

    receipt_id: str
    boundary_id: str
    operator_id: str
    seq: int


@dataclass(frozen=True, slots=True)
class Holder:
    """A ``REQUIRES`` edge into a recall copy from a standing entry: its policy and the work seq
    its lease ends at (a hard edge holds whatever its lease; ``None``: an edge a set of the same
    batch declared without a lease, held for the default lease, which outlasts one use)."""

    entry_id: str
    policy: str
    until: int | None

    def holds_at(self, work: int) -> bool:
        return self.policy == "hard" or self.until is None or self.until >= work


@dataclass(frozen=True, slots=True)
class OneUseCopy:
    """A resident recall copy whose own lease ends within the batch's work seqs (as the graph
    records it: ``expires_after_seq``, foundational mark, the edges that require it)."""

    id: str
    expires_after_seq: int
    foundational: bool = False
    held_by: tuple[Holder, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaimFacts:
    """What the graph shows, at the seq a czar set commits, about an entry the czar claims a
    pre-authorized case for (read inside the gate transaction, never from the czar's text)."""

    reachable: bool  # reachable from a root through valid REQUIRES edges (or a held interface)
    superseded_unexecuted: bool  # an unexecuted SUPERSEDES from a standing entry of its key
    default_superseded: bool  # superseded_by_default and a newer standing entry of its key


@dataclass(frozen=True, slots=True)
class SetFootprint:
    """A ratified set as the fragment group sees it: what it declared and whom it descends from
    (the window sets it depends on, transitively), and the entries its new entries declare an
    edge to (``dependencies``: what fragments share besides a target)."""

    id: str
    seq: int
    targets: frozenset[str]
    writers: frozenset[str]
    fanout: int
    entries: int
    lineage: frozenset[str]
    dependencies: frozenset[str] = frozenset()


@dataclass(slots=True)
class LockedBoundary:
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
    # The boundary's work (ratified sets but the czar's and constitution changes): lease clock.
    work_seq: int = 0
    # The ledger's head: the position and digest of the boundary's last record (gate.pure.ledger).
    ledger_pos: int = 0
    ledger_head: str | None = None
    # The czar's cadence the boundary records (0: only on demand) and the seq its last czar
    # run was claimed at (read by the commit path only: other readers leave them 0).
    czar_every_commits: int = 0
    czar_seq: int = 0
    # The recall copies whose one use is still to come (``gate/one_use``), sorted ids.
    one_use_pending: list[str] = field(default_factory=list)

    def czar_due(self, seq: int) -> bool:
        """Whether the cadence is due once the boundary's seq is ``seq``."""
        every = self.czar_every_commits
        return every > 0 and seq >= self.czar_seq + every


@dataclass(frozen=True, slots=True)
class RetiredSource:
    """A retired entry of the boundary as the record holds it: what a rule-made copy copies, and
    whether it left the window from live (retired, never superseded nor failed first)."""

    id: str
    entry_class: str
    key: str
    body: str
    set_seq: int
    from_live: bool


@dataclass(frozen=True, slots=True)
class CopySource:
    """A recall copy of the boundary and the entry it was copied from, as the graph shows them
    (``[on_dependency] recall_copy``): the source's state, and whether it left the window from
    live (retired, never superseded nor failed first)."""

    copy_id: str
    source: EntryState
    from_live: bool


@dataclass(slots=True)
class Snapshot:
    """The boundary and what the batch's sets refer to: entries (by id; ``foreign`` by boundary
    and id), registered writers, cited adoption receipts, the czar's claimed cases, the sets of
    the fragment window, set ids already recorded, and how many halts each set has had."""

    boundary: LockedBoundary
    entries: dict[str, EntryState] = field(default_factory=dict)
    adoptions: dict[str, AdoptionState] = field(default_factory=dict)
    halt_counts: dict[str, int] = field(default_factory=dict)  # set id -> halts so far
    writers: dict[str, str] = field(default_factory=dict)  # registered writer id -> kind
    foreign: dict[tuple[str, str], EntryState] = field(default_factory=dict)
    claims: dict[str, ClaimFacts] = field(default_factory=dict)  # entry id -> graph facts
    recent_sets: list[SetFootprint] = field(default_factory=list)  # in seq order
    taken_set_ids: set[str] = field(default_factory=set)
    # Operators' revocations naming the batch's writers / cited adoption receipts: id -> receipt
    revoked_writers: dict[str, Revoked] = field(default_factory=dict)
    revoked_adoptions: dict[str, Revoked] = field(default_factory=dict)
    # Recall copies whose one use the batch may spend (``gate/one_use``): id -> lease facts.
    one_use: dict[str, OneUseCopy] = field(default_factory=dict)
    # Retired entries of the boundary the batch depends on or supersedes: id -> what the
    # record holds of it (``[on_dependency]``, ``[on_supersession]``).
    retired_sources: dict[str, RetiredSource] = field(default_factory=dict)
    # Recall copies the batch depends on: copy id -> its source (``[on_dependency] recall_copy``).
    copy_sources: dict[str, CopySource] = field(default_factory=dict)
    # ``on_slot``'s index of ``entries`` by (class, key) of this boundary: the ids that may be
    # live and resident (``on_slot`` drops the others as it reads them; ``add_entry`` puts one
    # back when it becomes so again), and how many entries it has seen (any other way of adding
    # rebuilds it).
    _slots: dict[tuple[str, str], dict[str, None]] = field(default_factory=dict, repr=False)
    _slotted: int = 0
    # ``recent_set``'s index of ``recent_sets`` (which only grows while a batch is decided).
    _recent_index: dict[str, SetFootprint] = field(default_factory=dict, repr=False)
    _recent_indexed: tuple[int, int] = (0, 0)  # (id of the list, how many of it are indexed)

    def recent_set(self, set_id: str | None) -> SetFootprint | None:
        """The set of the fragment window with this id (``None``: not one of them), by an index
        kept up to date as sets are appended (a lookup per reference, not a scan of the window:
        a batch of many sets would be quadratic)."""
        if set_id is None:
            return None
        return self.recent_by_id().get(set_id)

    def recent_by_id(self) -> dict[str, SetFootprint]:
        """``recent_sets`` by id (the index ``recent_set`` reads, brought up to date: for a
        caller that looks up many ids at once; read it, never change it)."""
        listed, indexed = self._recent_indexed
        if listed != id(self.recent_sets) or indexed > len(self.recent_sets):
            self._recent_index, indexed = {}, 0
        for f in self.recent_sets[indexed:]:
            self._recent_index[f.id] = f
        self._recent_indexed = (id(self.recent_sets), len(self.recent_sets))
        return self._recent_index

    def recent_since(self, first_seq: int) -> list[SetFootprint]:
        """The sets of ``recent_sets`` ratified at ``first_seq`` or later, in their order: read
        from the end back (the list is in seq order), so a set decided late in a large batch
        looks at its window, not at every set the batch decided before it."""
        recent = self.recent_sets
        start = len(recent)
        while start and recent[start - 1].seq >= first_seq:
            start -= 1
        return recent[start:]

    def add_entry(self, entry: EntryState) -> None:
        """Record an entry the batch read or creates, or an entry's new state (later sets of the
        batch see it). Change an entry this way, not by assigning into ``entries``: the slot
        index sees an entry that becomes live and resident again only here."""
        if entry.id not in self.entries:
            indexed = self._slotted == len(self.entries)
            self.entries[entry.id] = entry
            if indexed:
                self._slot(entry)
                self._slotted += 1
        else:
            self.entries[entry.id] = entry
            if entry.live and entry.resident:
                self._slot(entry)

    def _slot(self, entry: EntryState) -> None:
        if entry.boundary_id == self.boundary.id:
            self._slots.setdefault((entry.entry_class, entry.key), {})[entry.id] = None

    def on_slot(self, entry_class: str, key: str) -> list[EntryState]:
        """The live resident entries of this boundary of ``entry_class`` on ``key`` that the
        snapshot holds now, by id (what an undeclared revision on that slot would revise: the
        gate reads every live resident entry of the batch's slots into ``entries``). The slot's
        entries that are no longer live and resident leave its index here (a slot that every set
        of a batch revises is read once per set: kept whole, that is quadratic)."""
        if self._slotted != len(self.entries):
            self._slots, self._slotted = {}, len(self.entries)
            for entry in self.entries.values():
                self._slot(entry)
        slot = self._slots.get((entry_class, key))
        if not slot:
            return []
        found = [self.entries[i] for i in slot]
        standing = [e for e in found if e.live and e.resident]
        if len(standing) < len(found):
            self._slots[(entry_class, key)] = dict.fromkeys(e.id for e in standing)
        return sorted(standing, key=lambda e: e.id)

    def own(self, entry_id: str) -> EntryState | None:
        """The entry of this boundary with that id (a bare reference), if the record has one."""
        found = self.entries.get(entry_id)
        return found if found is not None and found.boundary_id == self.boundary.id else None
