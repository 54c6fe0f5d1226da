"""Every bus proposal lands in the record as a thought: winners, and inhibited ones with reasons.

``bus_thoughts`` turns one broadcast's reports, arbitration and admission into ``BusThought``
values (pure): ``won`` when arbitration accepted it and admission applied it, ``inhibited`` with
the reason (an ``ArbitrationReason`` and the proposal that beat it, or an ``AdmissionReason``)
otherwise. ``GraphThoughtLog`` writes them, one batched statement per broadcast, as
``(:BusProposal:Thought)`` nodes of the boundary (never entries, never resident); a durable
winner's gate outcome is added after the gate decided. Ids are
``<broadcast id>/<subscriber>/<position in its report>``, so a retried write is a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from kg_context.cycle.admission import AdmissionResult
from kg_context.cycle.arbitration import ArbitratedProposal, ArbitrationResult
from kg_context.cycle.models import BusProposal, SubscriberReport
from kg_context.db.executor import QueryExecutor
from kg_context.db.text_index import boundary_token
from kg_context.errors import StateError
from kg_context.text.thoughts import ThoughtText, thought_text
from kg_context.vocabulary import ThoughtOutcome, ThoughtSource

__all__ = ["BusThought", "GateOutcomeRow", "GraphThoughtLog", "ThoughtLog", "bus_thoughts"]


@dataclass(frozen=True, slots=True)
class BusThought:
    """One bus proposal of one broadcast and what became of it."""

    id: str
    subscriber: str
    proposal: BusProposal
    penalty: float
    effective_priority: float
    outcome: ThoughtOutcome
    reason: str  # an ArbitrationReason or AdmissionReason value
    inhibited_by: str | None
    text: ThoughtText

    def row(self) -> dict[str, object]:
        p = self.proposal
        return {
            **self.text.row(),
            "id": self.id,
            "subscriber": self.subscriber,
            "kind": p.kind,
            "key": p.key,
            "priority": p.priority,
            "exact": p.exact,
            "entry_ids": list(p.entry_ids),
            "targets": list(p.targets),
            "penalty": self.penalty,
            "effective_priority": self.effective_priority,
            "thought_outcome": self.outcome.value,
            "thought_reason": self.reason,
            "inhibited_by": self.inhibited_by,
        }


@dataclass(frozen=True, slots=True)
class GateOutcomeRow:
    """What the gate decided for a durable winner, keyed by its thought id."""

    thought_id: str
    gate_proposal_id: str
    outcome: str
    set_id: str | None
    entry_ids: tuple[str, ...]


def bus_thoughts(
    broadcast_id: str,
    reports: Sequence[SubscriberReport],
    arbitration: ArbitrationResult,
    admission: AdmissionResult,
) -> tuple[BusThought, ...]:
    """Every proposal of the broadcast's reports, in report order, with its outcome."""
    ids: dict[int, list[str]] = {}
    order: dict[str, int] = {}
    for report in reports:
        for index, proposal in enumerate(report.proposals):
            thought_id = f"{broadcast_id}/{report.subscriber}/{index}"
            ids.setdefault(id(proposal), []).append(thought_id)
            order[thought_id] = len(order)
    decided: list[tuple[ThoughtOutcome, str, ArbitratedProposal]] = [
        (ThoughtOutcome.WON if d.admitted else ThoughtOutcome.INHIBITED, d.reason.value, d.item)
        for d in admission.decisions
    ]
    decided += [(ThoughtOutcome.INHIBITED, i.reason.value, i) for i in arbitration.inhibited]
    thoughts = []
    for outcome, reason, item in decided:
        # The same proposal object twice in one report: its positions are taken in order.
        thought_id = ids[id(item.proposal)].pop(0)
        thoughts.append(
            BusThought(
                id=thought_id,
                subscriber=item.subscriber,
                proposal=item.proposal,
                penalty=item.penalty,
                effective_priority=item.effective_priority,
                outcome=outcome,
                reason=reason,
                inhibited_by=item.inhibited_by,
                text=thought_text(item.proposal.text),
            )
        )
    return tuple(sorted(thoughts, key=lambda t: order[t.id]))


class ThoughtLog(Protocol):
    """Where a cycle keeps its bus proposals (the graph, by default, for a graph source)."""

    def record(self, broadcast_id: str, cycle: int, thoughts: Sequence[BusThought]) -> None: ...

    def record_gate_outcomes(self, rows: Sequence[GateOutcomeRow]) -> None: ...


class GraphThoughtLog:
    """Bus proposals of one boundary as ``(:BusProposal:Thought)`` nodes, one write each."""

    def __init__(self, executor: QueryExecutor, boundary_id: str) -> None:
        self.executor = executor
        self.boundary_id = boundary_id

    def record(self, broadcast_id: str, cycle: int, thoughts: Sequence[BusThought]) -> None:
        if not thoughts:
            return
        written = self.executor.write(
            "cycle/write_thoughts",
            boundary_id=self.boundary_id,
            boundary_token=boundary_token(self.boundary_id),
            thought_source=ThoughtSource.BUS.value,
            broadcast_id=broadcast_id,
            cycle=cycle,
            at=datetime.now(UTC),
            rows=[t.row() for t in thoughts],
        )
        clashes = sorted(written[0]["clashes"]) if written else []
        if clashes:
            raise StateError(
                f"bus proposals {clashes[:3]} of boundary {self.boundary_id} were already recorded "
                f"by an earlier broadcast ({len(clashes)} in all): give each cycle its own run_id",
                boundary_id=self.boundary_id,
                proposal_id=clashes[0],
            )

    def record_gate_outcomes(self, rows: Sequence[GateOutcomeRow]) -> None:
        if not rows:
            return
        self.executor.write(
            "cycle/record_thought_gate_outcomes",
            boundary_id=self.boundary_id,
            rows=[
                {
                    "id": r.thought_id,
                    "gate_proposal_id": r.gate_proposal_id,
                    "outcome": r.outcome,
                    "set_id": r.set_id,
                    "entry_ids": list(r.entry_ids),
                }
                for r in rows
            ],
        )
