"""The typed data of the selection-broadcast cycle: pure, immutable values.

Candidates wait in the preconscious buffer; competition winners become conscious items; the
conscious workspace is broadcast as one ``BroadcastContext`` that every subscriber shares;
subscribers answer with ``BusProposal`` values inside a ``SubscriberReport``. Every decision the
cycle takes carries a reason code from one of the enums below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kg_context.errors import InputValidationError
from kg_context.gate.pure.contracts import MAX_BODY_CHARS
from kg_context.vocabulary import EntryStatus

__all__ = [
    "AdmissionReason",
    "ArbitrationReason",
    "BroadcastContext",
    "BroadcastItem",
    "BufferReason",
    "BusProposal",
    "Candidate",
    "CandidateOrigin",
    "CompetitionReason",
    "ConsciousItem",
    "EntryRecord",
    "ProposalKind",
    "RecallTag",
    "SubscriberReport",
    "SubscriberStatus",
    "TaskValue",
]

TaskValue = str | int | float | bool


class CandidateOrigin(StrEnum):
    """Where a preconscious candidate came from (the buffer's allowed inputs)."""

    STORED = "stored"  # offered by the caller (a stored item)
    RECALLED = "recalled"  # an admitted query_memory proposal's match, read from the record
    EVICTED = "evicted"  # a conscious item that lost its slot
    LINKED = "linked"  # an explicit link of a conscious item (recurrent link activation)


class BufferReason(StrEnum):
    BUFFERED = "buffered"
    MERGED = "merged"  # the id was already waiting: the higher activation is kept
    BUFFER_OVERFLOW = "buffer_overflow"  # the buffer was full and this was the weakest
    FADED = "faded"  # waited until its activation decayed under the buffer floor


class CompetitionReason(StrEnum):
    ADMITTED = "admitted"
    BELOW_MIN_ACTIVATION = "below_min_activation"  # stays preconscious
    CAPACITY_EVICTED = "capacity_evicted"  # a conscious item displaced by a stronger candidate
    CAPACITY_REJECTED = "capacity_rejected"  # workspace full of stronger items; stays preconscious
    DUPLICATE = "duplicate"  # already conscious (activation refreshed) or repeated in the round
    INELIGIBLE_STATUS = "ineligible_status"  # not standing in the record (and no recall copy)
    DECAYED_BELOW_MIN = "decayed_below_min_activation"  # a conscious item that faded out


class ArbitrationReason(StrEnum):
    ACCEPTED = "accepted"
    DUPLICATE_KEY = "duplicate_key"  # same kind and key in the round, lower priority
    EXACT_RESOLUTION = "exact_resolution"  # a lower-priority recall query beside an exact answer
    REPEAT_KEY_PENALTY = "repeat_key_penalty"  # the decaying penalty took its priority to zero


class AdmissionReason(StrEnum):
    ADMITTED = "admitted"
    BELOW_MIN_RESOLVE_PRIORITY = "below_min_resolve_priority"
    BELOW_MIN_QUERY_PRIORITY = "below_min_query_priority"
    SUPPRESSED_AFTER_ANSWER = "suppressed_after_answer"


class SubscriberStatus(StrEnum):
    OK = "ok"
    TIMEOUT = "timeout"
    ERROR = "error"


def _unit(name: str, value: float) -> None:
    if not (isinstance(value, int | float) and math.isfinite(value) and 0.0 <= value <= 1.0):
        raise InputValidationError(f"{name} must be a number in [0, 1], not {value!r}")


@dataclass(frozen=True, slots=True)
class RecallTag:
    """What an admitted recall copy stands for, read from the graph when the copy was read: its
    original (id, class, status now, set seq, superseder), the recall set that admitted the copy
    through the gate and that set's commit receipt."""

    original_id: str
    original_class: str
    original_status: str
    original_set_seq: int
    superseded_by: str | None
    admitted_in: str
    receipt_id: str | None

    def text(self) -> str:
        said = f"recalled {self.original_id}, matched in set {self.original_set_seq}, "
        said += self.original_status
        if self.superseded_by:
            said += f", superseded by {self.superseded_by}"
        return f"{said}; admitted in {self.admitted_in}"


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """An ``:Entry`` as the cycle reads it from the graph, with its explicit outgoing links
    (``recall``: set when the entry is an admitted recall copy)."""

    id: str
    key: str
    body: str
    entry_class: str
    status: str
    linked_ids: tuple[str, ...] = ()
    recall: RecallTag | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A rankable preconscious candidate: not globally visible until competition admits it."""

    id: str
    key: str
    text: str
    activation: float
    origin: CandidateOrigin
    linked_ids: tuple[str, ...] = ()
    status: str = EntryStatus.LIVE.value  # the record status tag (live, superseded, at_risk, ...)
    entry_class: str | None = None
    activated_by: tuple[str, ...] = ()  # for linked candidates: the conscious ids that linked it
    recall: RecallTag | None = None  # an admitted recall copy: what it stands for

    def __post_init__(self) -> None:
        if not self.id or not self.key:
            raise InputValidationError("a candidate needs a non-empty id and key")
        _unit(f"candidate {self.id!r} activation", self.activation)
        if not isinstance(self.linked_ids, tuple) or not isinstance(self.activated_by, tuple):
            raise InputValidationError("linked_ids and activated_by are tuples")

    @classmethod
    def from_entry(
        cls,
        record: EntryRecord,
        *,
        activation: float,
        origin: CandidateOrigin,
        activated_by: tuple[str, ...] = (),
    ) -> Candidate:
        return cls(
            id=record.id,
            key=record.key,
            text=record.body,
            activation=activation,
            origin=origin,
            linked_ids=record.linked_ids,
            status=record.status,
            entry_class=record.entry_class,
            activated_by=activated_by,
            recall=record.recall,
        )

    def with_activation(
        self, activation: float, origin: CandidateOrigin | None = None
    ) -> Candidate:
        return Candidate(
            id=self.id,
            key=self.key,
            text=self.text,
            activation=activation,
            origin=origin or self.origin,
            linked_ids=self.linked_ids,
            status=self.status,
            entry_class=self.entry_class,
            activated_by=self.activated_by,
            recall=self.recall,
        )


@dataclass(frozen=True, slots=True)
class ConsciousItem:
    """A competition winner in the conscious workspace (state CONSCIOUS)."""

    candidate: Candidate
    activation: float
    admitted_cycle: int

    @property
    def id(self) -> str:
        return self.candidate.id


@dataclass(frozen=True, slots=True)
class BroadcastItem:
    """One conscious item as broadcast: its rendered line and that line's token count."""

    id: str
    key: str
    status: str
    activation: float
    origin: CandidateOrigin
    line: str
    tokens: int
    linked_ids: tuple[str, ...]
    recall: RecallTag | None = None  # set for an admitted recall copy: its original's status


@dataclass(frozen=True, slots=True)
class BroadcastContext:
    """What every subscriber receives, the same object for all of them; immutable."""

    broadcast_id: str
    cycle: int
    items: tuple[BroadcastItem, ...]
    omitted_ids: tuple[str, ...]  # conscious items that did not fit the token budget
    tokens: int
    token_budget: int
    answer_available: bool  # a deterministic answer exists for the task (admission state)
    task: Mapping[str, TaskValue] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        # A read-only view of a private copy: a subscriber cannot change what the others see.
        object.__setattr__(self, "task", MappingProxyType(dict(self.task)))

    @property
    def text(self) -> str:
        return "\n".join(item.line for item in self.items)


ProposalKind = Literal[
    "resolve_answer",  # an answer; ``exact`` when deterministic
    "query_memory",  # recall entries (by ``entry_ids`` and by ``key``) into the buffer
    "admit_fact",  # durable: a fact entry, through the gate
    "flag_contradiction",  # durable: an open question over ``entry_ids``, through the gate
    "ask_followup",  # metadata only
]


class BusProposal(BaseModel):
    """What a subscriber may return: a proposal, never a mutation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ProposalKind
    key: str = Field(min_length=1, max_length=512)
    priority: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)
    text: str = Field(default="", max_length=MAX_BODY_CHARS)
    exact: bool = False
    entry_ids: tuple[str, ...] = Field(default=(), max_length=1024)
    targets: tuple[str, ...] = Field(default=(), max_length=256)

    @property
    def penalty_key(self) -> str:
        """The key the repeat penalty is kept under."""
        return f"{self.kind}:{self.key}"


@dataclass(frozen=True, slots=True)
class SubscriberReport:
    """One subscriber's answer to one broadcast."""

    subscriber: str
    broadcast_id: str
    status: SubscriberStatus
    proposals: tuple[BusProposal, ...] = ()
    error: str | None = None
    elapsed_s: float | None = None  # None when it timed out (still running, abandoned)
