"""Competition: which preconscious candidates enter the bounded conscious workspace, and why.

Every candidate, and every conscious item that loses its place, gets one ``CompetitionDecision``
with a reason code. Deterministic: candidates are taken strongest first, ties by id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg_context.cycle.buffer import rank
from kg_context.cycle.models import (
    Candidate,
    CandidateOrigin,
    CompetitionReason,
)
from kg_context.cycle.workspace import ConsciousWorkspace
from kg_context.vocabulary import CYCLE_INELIGIBLE

__all__ = ["CompetitionDecision", "CompetitionResult", "compete"]


@dataclass(frozen=True, slots=True)
class CompetitionDecision:
    candidate_id: str
    key: str
    activation: float
    reason: CompetitionReason
    displaced_by: str | None = None  # for capacity_evicted: the winner that took the slot


@dataclass(frozen=True, slots=True)
class CompetitionResult:
    decisions: tuple[CompetitionDecision, ...]
    admitted: tuple[str, ...]
    # Candidates that stay preconscious (below threshold, or beaten for capacity), and conscious
    # items that lost their slot (as ``evicted`` candidates): all go back to the buffer.
    waiting: tuple[Candidate, ...]
    evicted: tuple[Candidate, ...]

    def reasons(self) -> dict[str, CompetitionReason]:
        """The last decision per id (an id admitted then displaced reads capacity_evicted)."""
        return {d.candidate_id: d.reason for d in self.decisions}


def compete(
    workspace: ConsciousWorkspace,
    candidates: Iterable[Candidate],
    *,
    min_activation: float,
    cycle: int,
    workspace_decay: float = 1.0,
) -> CompetitionResult:
    """Decay the workspace, then admit candidates above ``min_activation`` while slots allow.

    A full workspace admits a candidate only if it is stronger than the weakest conscious item,
    which is evicted back to the buffer. Retired and invalidated entries never compete.
    """
    decisions: list[CompetitionDecision] = []
    waiting: list[Candidate] = []
    evicted: list[Candidate] = []
    admitted: list[str] = []

    workspace.decay(workspace_decay)
    for item in workspace.items():
        if item.activation < min_activation:
            workspace.evict(item.id)
            evicted.append(item.candidate.with_activation(item.activation, CandidateOrigin.EVICTED))
            decisions.append(
                CompetitionDecision(
                    item.id,
                    item.candidate.key,
                    item.activation,
                    CompetitionReason.DECAYED_BELOW_MIN,
                )
            )

    seen: set[str] = set()
    for candidate in rank(candidates):
        reason: CompetitionReason
        if candidate.id in seen:
            reason = CompetitionReason.DUPLICATE
        elif candidate.status in CYCLE_INELIGIBLE:
            reason = CompetitionReason.INELIGIBLE_STATUS
        elif candidate.id in workspace:
            workspace.refresh(candidate)
            reason = CompetitionReason.DUPLICATE
        elif candidate.activation < min_activation:
            reason = CompetitionReason.BELOW_MIN_ACTIVATION
            waiting.append(candidate)
        elif not workspace.full:
            workspace.admit(candidate, cycle)
            admitted.append(candidate.id)
            reason = CompetitionReason.ADMITTED
        else:
            weakest = workspace.weakest()
            if weakest is not None and candidate.activation > weakest.activation:
                workspace.evict(weakest.id)
                evicted.append(
                    weakest.candidate.with_activation(weakest.activation, CandidateOrigin.EVICTED)
                )
                if weakest.id in admitted:
                    admitted.remove(weakest.id)
                decisions.append(
                    CompetitionDecision(
                        weakest.id,
                        weakest.candidate.key,
                        weakest.activation,
                        CompetitionReason.CAPACITY_EVICTED,
                        displaced_by=candidate.id,
                    )
                )
                workspace.admit(candidate, cycle)
                admitted.append(candidate.id)
                reason = CompetitionReason.ADMITTED
            else:
                reason = CompetitionReason.CAPACITY_REJECTED
                waiting.append(candidate)
        seen.add(candidate.id)
        decisions.append(
            CompetitionDecision(candidate.id, candidate.key, candidate.activation, reason)
        )
    return CompetitionResult(
        decisions=tuple(decisions),
        admitted=tuple(admitted),
        waiting=tuple(waiting),
        evicted=tuple(evicted),
    )
