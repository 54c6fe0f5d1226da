"""Pure data of workspace attention: a specialist's output, a scored proposal, a wave's result.

Nothing here touches the database or the model; the scorer builds these, the store persists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from kg_context.vocabulary import AttentionScope, EntryStatus, Outcome

__all__ = [
    "AttentionScope",  # re-exported from kg_context.vocabulary
    "AttentionScore",
    "BroadcastResult",
    "ConfidenceSource",
    "ScoredProposal",
    "SpecialistOutput",
    "WinnerFate",
    "WinnerOutcome",
]


@dataclass(frozen=True, slots=True)
class AttentionScore:
    """A specialist's attention score and what it was read from: ``scope`` and, for the
    boundary scope, ``boundary_id``. ``score`` is ``None`` when it has no selected proposal
    there yet."""

    specialist_id: str
    score: float | None
    scope: AttentionScope
    boundary_id: str | None

    def as_dict(self) -> dict[str, object]:
        """The score as JSON-ready data (the one form the CLI's ``--json`` and the HTTP body,
        ``ScoreOut``, carry)."""
        return {
            "specialist_id": self.specialist_id,
            "attention_score": self.score,
            "scope": AttentionScope(self.scope).value,
            "boundary_id": self.boundary_id,
        }


class ConfidenceSource(StrEnum):
    """Where a proposal's confidence came from (stored on the ProposalNode)."""

    METADATA = "metadata"  # declared: {"text": ..., "confidence": 0.8}
    TEXT = "text"  # documented fallback: a "confidence: 0.7" (or "70%") line in the text
    DEFAULT = "default"  # neither: AttentionSettings.default_confidence


class WinnerFate(StrEnum):
    """What became of a broadcast winner (``ProposalNode.outcome``): the gate's outcome for it,
    or what happened instead (reinforced, invalidated later, never proposed)."""

    COMMIT = Outcome.COMMIT.value  # the gate admitted it as a new entry
    HALT = Outcome.HALT.value  # the gate halted its set
    REJECT = Outcome.REJECT.value  # the gate rejected it
    REINFORCE = "reinforce"  # a repeat win: linked to the entry that already stands
    INVALIDATED = EntryStatus.INVALIDATED.value  # reported later: its admitted work was invalidated
    NOT_PROPOSED = "not_proposed"  # no gate attached: recorded only (not written as an outcome)


# How outcomes count toward a track record (entry statuses take precedence, see the Cypher file).
SUCCESS_OUTCOMES = (WinnerFate.COMMIT.value, WinnerFate.REINFORCE.value)
FAILURE_OUTCOMES = (
    WinnerFate.HALT.value,
    WinnerFate.REJECT.value,
    WinnerFate.INVALIDATED.value,
)
# An admitted entry in ``vocabulary.FAILED_WORK`` makes the proposal a failure; one in
# ``vocabulary.LIVE_STATUSES`` stands, and a repeat win of the same content reinforces it.


@dataclass(frozen=True, slots=True)
class SpecialistOutput:
    """One specialist's output for a wave, validated, with its declared or parsed confidence."""

    specialist_id: str
    text: str
    confidence: float
    confidence_source: ConfidenceSource


@dataclass(frozen=True, slots=True)
class ScoredProposal:
    """A scored specialist output: one future ``:ProposalNode``.

    ``composite`` is the weighted sum of ``relevance`` (cosine of query and output embeddings,
    clamped at 0), ``track_record`` (Beta posterior mean over past outcomes) and ``confidence``.
    ``rank`` is the 1-based position in the wave by composite; ``selected`` marks a winner.
    """

    id: str
    wave_id: str
    specialist_id: str
    task_id: str
    text: str
    digest: str
    relevance: float
    track_record: float
    confidence: float
    confidence_source: ConfidenceSource
    composite: float
    rank: int
    at: datetime
    embedding: tuple[float, ...] = field(repr=False)
    selected: bool = False

    @property
    def insight_key(self) -> str:
        """The entry key a winner is proposed under: one per specialist and content digest."""
        return f"insight/{self.specialist_id}/{self.digest[:16]}"


@dataclass(frozen=True, slots=True)
class WinnerOutcome:
    """What became of one winner: the gate's outcome, or reinforcement of a standing entry."""

    proposal_id: str
    specialist_id: str
    outcome: str
    entry_ids: tuple[str, ...] = ()
    set_id: str | None = None
    receipt_id: str | None = None


@dataclass(frozen=True, slots=True)
class BroadcastResult:
    """One wave: every scored proposal (winners first), the winners, and their outcomes."""

    wave_id: str
    proposals: tuple[ScoredProposal, ...]
    winners: tuple[ScoredProposal, ...]
    outcomes: tuple[WinnerOutcome, ...]

    @property
    def losers(self) -> tuple[ScoredProposal, ...]:
        return tuple(p for p in self.proposals if not p.selected)

    @property
    def broadcast(self) -> bool:
        """Whether the winners were proposed to the gate (not for a lone output or no gate)."""
        return any(o.outcome != WinnerFate.NOT_PROPOSED for o in self.outcomes)
