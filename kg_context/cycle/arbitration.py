"""Arbitration of one broadcast round: accept, inhibit (with a reason), penalize repeated keys.

``Arbiter`` applies the rules (repeat-key penalty, one proposal per kind and key, exact
resolution inhibiting weaker queries) and decays the penalty after each round; ties never depend
on thread timing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg_context.cycle.models import (
    ArbitrationReason,
    BusProposal,
    SubscriberReport,
    SubscriberStatus,
)

__all__ = ["Arbiter", "ArbitratedProposal", "ArbitrationResult", "RepeatKeyPenalty"]

_FORGET_BELOW = 1e-9


@dataclass(frozen=True, slots=True)
class ArbitratedProposal:
    subscriber: str
    proposal: BusProposal
    penalty: float
    effective_priority: float
    reason: ArbitrationReason
    inhibited_by: str | None = None  # the winning proposal's "subscriber/kind:key"

    @property
    def accepted(self) -> bool:
        return self.reason is ArbitrationReason.ACCEPTED

    @property
    def ref(self) -> str:
        return f"{self.subscriber}/{self.proposal.penalty_key}"


@dataclass(frozen=True, slots=True)
class ArbitrationResult:
    broadcast_id: str
    accepted: tuple[ArbitratedProposal, ...]
    inhibited: tuple[ArbitratedProposal, ...]


class RepeatKeyPenalty:
    """Per-key penalties that grow when a key is accepted and decay after every broadcast."""

    def __init__(self, penalty: float, decay: float) -> None:
        if not (0.0 <= penalty <= 1.0 and 0.0 <= decay < 1.0):
            raise ValueError("penalty in [0, 1] and decay in [0, 1)")
        self.penalty = penalty
        self.decay = decay
        self._keys: dict[str, float] = {}

    def of(self, key: str) -> float:
        return self._keys.get(key, 0.0)

    def snapshot(self) -> dict[str, float]:
        return dict(self._keys)

    def after_broadcast(self, accepted_keys: Iterable[str]) -> None:
        decayed = {k: v * self.decay for k, v in self._keys.items()}
        for key in set(accepted_keys):
            decayed[key] = decayed.get(key, 0.0) + self.penalty
        self._keys = {k: v for k, v in decayed.items() if v > _FORGET_BELOW}


class Arbiter:
    """Arbitrates each broadcast's reports; keeps the repeat-key penalties between broadcasts."""

    def __init__(self, penalties: RepeatKeyPenalty) -> None:
        self.penalties = penalties

    def arbitrate(
        self, broadcast_id: str, reports: Iterable[SubscriberReport]
    ) -> ArbitrationResult:
        offered = [
            (report.subscriber, proposal)
            for report in reports
            if report.status is SubscriberStatus.OK
            for proposal in report.proposals
        ]
        scored = []
        for subscriber, proposal in offered:
            penalty = self.penalties.of(proposal.penalty_key)
            scored.append((subscriber, proposal, penalty, proposal.priority - penalty))
        scored.sort(key=lambda s: (-s[3], s[0], s[1].penalty_key))

        accepted: list[ArbitratedProposal] = []
        inhibited: list[ArbitratedProposal] = []
        winners: dict[str, ArbitratedProposal] = {}
        for subscriber, proposal, penalty, effective in scored:
            winner = winners.get(proposal.penalty_key)
            if penalty > 0.0 and effective <= 0.0:
                reason, by = ArbitrationReason.REPEAT_KEY_PENALTY, None
            elif winner is not None:
                reason, by = ArbitrationReason.DUPLICATE_KEY, winner.ref
            else:
                reason, by = ArbitrationReason.ACCEPTED, None
            decided = ArbitratedProposal(subscriber, proposal, penalty, effective, reason, by)
            if decided.accepted:
                winners[proposal.penalty_key] = decided
                accepted.append(decided)
            else:
                inhibited.append(decided)

        exact = [a for a in accepted if a.proposal.kind == "resolve_answer" and a.proposal.exact]
        if exact:
            top = exact[0]  # accepted is in effective-priority order
            kept: list[ArbitratedProposal] = []
            for a in accepted:
                if (
                    a.proposal.kind == "query_memory"
                    and a.effective_priority < top.effective_priority
                ):
                    inhibited.append(
                        ArbitratedProposal(
                            a.subscriber,
                            a.proposal,
                            a.penalty,
                            a.effective_priority,
                            ArbitrationReason.EXACT_RESOLUTION,
                            top.ref,
                        )
                    )
                else:
                    kept.append(a)
            accepted = kept

        self.penalties.after_broadcast(a.proposal.penalty_key for a in accepted)
        return ArbitrationResult(broadcast_id, tuple(accepted), tuple(inhibited))
