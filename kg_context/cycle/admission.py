"""The bus admission policy: which accepted proposals apply.

- ``resolve_answer`` below ``min_resolve_priority`` is skipped;
- ``query_memory`` below ``min_query_priority`` is skipped;
- ``query_memory`` is suppressed once a deterministic (exact) answer is available, from an
  earlier broadcast or from this round, unless ``suppress_queries_after_answer`` is off;
- ``admit_fact`` and ``flag_contradiction`` are admitted to become gate proposals (the gate
  decides); ``ask_followup`` is metadata only.

Priorities are the effective ones after arbitration's repeat-key penalty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg_context.cycle.arbitration import ArbitratedProposal
from kg_context.cycle.models import AdmissionReason

__all__ = ["AdmissionDecision", "AdmissionResult", "BusAdmissionPolicy"]


@dataclass(frozen=True, slots=True)
class AdmissionDecision:
    item: ArbitratedProposal
    reason: AdmissionReason

    @property
    def admitted(self) -> bool:
        return self.reason is AdmissionReason.ADMITTED


@dataclass(frozen=True, slots=True)
class AdmissionResult:
    decisions: tuple[AdmissionDecision, ...]
    answer_available: bool  # after this round

    def admitted(self) -> list[ArbitratedProposal]:
        return [d.item for d in self.decisions if d.admitted]


@dataclass(frozen=True, slots=True)
class BusAdmissionPolicy:
    min_resolve_priority: float = 0.5
    min_query_priority: float = 0.3
    suppress_queries_after_answer: bool = True

    def apply(
        self, accepted: Iterable[ArbitratedProposal], *, answer_available: bool
    ) -> AdmissionResult:
        """Answers are decided first so a deterministic one suppresses this round's queries."""
        items = list(accepted)
        by_item: dict[int, AdmissionDecision] = {}
        for index, item in enumerate(items):
            if item.proposal.kind != "resolve_answer":
                continue
            if item.effective_priority < self.min_resolve_priority:
                by_item[index] = AdmissionDecision(item, AdmissionReason.BELOW_MIN_RESOLVE_PRIORITY)
            else:
                by_item[index] = AdmissionDecision(item, AdmissionReason.ADMITTED)
                answer_available = answer_available or item.proposal.exact
        for index, item in enumerate(items):
            if index in by_item:
                continue
            reason = AdmissionReason.ADMITTED
            if item.proposal.kind == "query_memory":
                if answer_available and self.suppress_queries_after_answer:
                    reason = AdmissionReason.SUPPRESSED_AFTER_ANSWER
                elif item.effective_priority < self.min_query_priority:
                    reason = AdmissionReason.BELOW_MIN_QUERY_PRIORITY
            by_item[index] = AdmissionDecision(item, reason)
        return AdmissionResult(
            decisions=tuple(by_item[i] for i in range(len(items))),
            answer_available=answer_available,
        )
