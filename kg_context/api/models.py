"""The HTTP API's request and response bodies (pydantic), as the OpenAPI spec documents them.

Request bodies validate at the edge; a proposal body is the library's ``Proposal`` with the
writer's id and kind (and the boundary) optional: the server stamps them from the token and the
path, and refuses a body that claims another writer.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from kg_context.gate.io.boundary_state import BoundaryState
from kg_context.gate.io.halts import HaltRecord
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import AttentionScope, Outcome, ResolutionKind, Verse, WriterKind

__all__ = [
    "AdmissionOut",
    "AdmitIn",
    "BoundaryIn",
    "BoundaryOut",
    "CitedEntryOut",
    "DecisionOut",
    "DecisionsOut",
    "HaltOut",
    "HaltRecordOut",
    "HaltViewOut",
    "HaltedSetOut",
    "HealthOut",
    "InvalidationIn",
    "InvalidationOut",
    "ProposalBody",
    "ResolutionIn",
    "ResolutionOut",
    "ScoreOut",
    "SpecialistOutputIn",
    "SubmissionOut",
    "WaveIn",
    "WaveOut",
]

_ID = r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$"


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProposalBody(Proposal):
    """A proposal as a writer sends it: ``writer_id``, ``writer_kind`` and ``boundary_id`` may
    be left out (the server fills them from the token and the path); if given they must match.
    It carries entries, transitions, or both."""

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": ["entries"], "properties": {"entries": {"minItems": 1}}},
                {"required": ["transitions"], "properties": {"transitions": {"minItems": 1}}},
            ]
        }
    )

    boundary_id: str | None = Field(default=None, pattern=_ID)  # type: ignore[assignment]
    writer_id: str | None = Field(default=None, pattern=_ID)  # type: ignore[assignment]
    writer_kind: WriterKind | None = None  # type: ignore[assignment]


class CitedEntryOut(_Out):
    """An entry a refused set cites that is unknown or not standing (``Decision.not_standing``)."""

    entry_id: str
    boundary_id: str
    status: str
    cited_as: str
    by: str


class DecisionOut(_Out):
    """What the gate decided for one set (``Decision.as_dict``): its outcome, the receipt, and
    for a refusal the reason code, detail, suggested amendment and halt id; what it declared
    but could not execute, the cited entries that do not stand, the supersessions a
    constitution rule made, and ``feedback``: the same decision as a short text for the model
    that wrote the set."""

    outcome: Outcome
    set_id: str
    boundary_id: str
    seq: int | None
    proposal_ids: list[str]
    entry_ids: list[str]
    receipt_id: str
    constitution_version: str
    reason_code: str | None = None
    detail: str | None = None
    suggested_amendment: str | None = None
    halt_id: str | None = None
    replayed: bool = False
    # What an approved set declared but the gate could not execute, named precisely.
    not_executed: list[str] = Field(default_factory=list)
    not_standing: list[CitedEntryOut] = Field(default_factory=list)
    # The supersessions a constitution rule made in a committed set (``[on_revision]``).
    rule_made: list[str] = Field(default_factory=list)
    feedback: str = ""

    @classmethod
    def of(cls, decision: Decision) -> DecisionOut:
        """The body of a decision: its one JSON form (``Decision.as_dict``), validated."""
        return cls.model_validate(decision.as_dict())


class DecisionsOut(_Out):
    decisions: list[DecisionOut]


class SubmissionOut(_Out):
    proposal_id: str
    status: str
    set_id: str | None
    new: bool


class BoundaryIn(_In):
    verse: Verse = Verse.LOCAL
    task_horizon: int | None = Field(default=None, ge=1, le=1_000_000)


class BoundaryOut(_Out):
    """A boundary's state (``Boundary.state()``)."""

    id: str
    seq: int | None
    verse: str | None
    constitution_version: str | None
    task_horizon: int | None
    created_at: str | None
    # The boundary's work seq: its ratified sets but the czar's (the clock leases count in).
    work_seq: int | None = None
    # The czar's cadence the boundary keeps (every N ratified sets; 0: only on demand).
    czar_every_commits: int | None = None

    @classmethod
    def of(cls, state: BoundaryState) -> BoundaryOut:
        return cls(**asdict(state))


class AdmitIn(_In):
    entry_ids: list[str] = Field(min_length=1, max_length=256)


class AdmissionOut(_Out):
    decision: DecisionOut
    copies: dict[str, str]
    cut: list[str]


class InvalidationIn(_In):
    mode: Literal["challenge", "invalidate"]
    target: str = Field(pattern=_ID, description="An entry id, or a set id (all its entries)")
    reason: str = Field(min_length=1, max_length=2000)


class InvalidationOut(_Out):
    """A blast radius through the gate (``BlastRadius.as_dict``)."""

    mode: Literal["challenge", "invalidate"]
    target: str = Field(description="The entry or set challenged or invalidated")
    decision: DecisionOut = Field(description="Part 1: the failed entries and the whole summary")
    parts: list[DecisionOut] = Field(
        description="Every governed set of the blast radius the gate decided, in order (a "
        "radius over KG_CONTEXT_INVALIDATION_TRANSITIONS_PER_SET transitions takes several)"
    )
    complete: bool = Field(description="Every part was committed")
    pages: int = Field(description="Statements the walk ran (pages of one level each)")
    summary: str | None
    failed: list[str]
    at_risk: list[str]
    flagged: list[str]
    recovery_actions: dict[str, int]


class SpecialistOutputIn(_In):
    text: str = Field(min_length=1, max_length=32_768)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)


class WaveIn(_In):
    outputs: dict[str, str | SpecialistOutputIn] = Field(
        min_length=1, max_length=64, description="specialist id -> its output (at most 64)"
    )
    query: str = Field(min_length=1, max_length=10_000)
    task_id: str = Field(pattern=_ID)


class WaveProposalOut(_Out):
    id: str
    specialist_id: str
    rank: int
    composite: float
    relevance: float
    track_record: float
    confidence: float
    selected: bool


class WaveOutcomeOut(_Out):
    proposal_id: str
    specialist_id: str
    outcome: str
    entry_ids: list[str]
    set_id: str | None
    receipt_id: str | None


class WaveOut(_Out):
    wave_id: str
    task_id: str
    broadcast: bool
    proposals: list[WaveProposalOut]
    outcomes: list[WaveOutcomeOut]


class ScoreOut(_Out):
    specialist_id: str
    attention_score: float | None = Field(
        description="The composite of its latest selected proposal in the scope; null when it "
        "has none there"
    )
    scope: AttentionScope = Field(
        description="What the score was read from: boundary (one boundary's proposals) or global"
    )
    boundary_id: str | None = Field(description="The boundary of the boundary scope")


class HaltOut(_Out):
    """A halt in a queue (``GET /boundaries/{b}/halts``, the MCP ``halts`` tool)."""

    id: str
    boundary_id: str
    set_id: str | None
    reason_code: str
    detail: str | None
    suggested_amendment: str | None
    status: str
    opened_at: str | None
    resolved_at: str | None
    resolution: str | None
    resolved_by: str | None
    resolution_seconds: float | None

    @classmethod
    def of(cls, halt: HaltRecord) -> Self:
        """The fields of this model, from a halt row (``HaltRecord`` holds more)."""
        return cls(**{name: getattr(halt, name) for name in cls.model_fields})


class HaltRecordOut(HaltOut):
    """One halt in full (``GET /boundaries/{b}/halts/{id}``): the queue's fields, the
    constitution version and seq it halted at, the threshold it tripped on and the value
    measured, and the operator's reason once resolved."""

    resolution_reason: str | None
    constitution_version: str
    at_seq: int | None
    parameter: str | None
    observed: float | None


class HaltedSetOut(_Out):
    """The set a halt is on (``HaltedSet``)."""

    id: str
    boundary_id: str
    status: str
    seq: int | None
    kind: str
    writer_id: str
    writer_ids: list[str]
    summary: str
    closed_at: str
    explicit: bool
    digest: str
    proposal_ids: list[str]
    targets: list[str]
    fanout: int | None
    entry_count: int | None


class HaltViewOut(_Out):
    halt: HaltRecordOut
    set: HaltedSetOut
    proposals: list[dict[str, Any]]


class ResolutionIn(_In):
    resolution: ResolutionKind
    reason: str = Field(min_length=1, max_length=2000)
    amendment: str | None = Field(
        default=None, max_length=262_144, description="The new constitution's TOML (amend)"
    )


class ResolutionOut(_Out):
    halt_id: str
    resolution: ResolutionKind
    decision: DecisionOut | None
    constitution_decision: DecisionOut | None


class HealthOut(_Out):
    status: Literal["ok"]
    database: str
    round_trip_ms: float
