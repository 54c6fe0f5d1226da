"""The selection-broadcast cycle: buffer → competition → broadcast → bus → arbitration
→ admission → recall, recurrent link activation, and gate proposals.

One ``run()`` is one broadcast. The cycle owns the buffer and the workspace; subscribers see only
the immutable ``BroadcastContext``; anything durable leaves through the ``GateSink``. Only
standing entries are read in as themselves. Not thread-safe: one caller at a time.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kg_context.cycle.admission import AdmissionResult, BusAdmissionPolicy
from kg_context.cycle.arbitration import (
    Arbiter,
    ArbitratedProposal,
    ArbitrationResult,
    RepeatKeyPenalty,
)
from kg_context.cycle.broadcast import format_broadcast
from kg_context.cycle.buffer import BufferDecision, PreconsciousBuffer
from kg_context.cycle.bus import BroadcastBus
from kg_context.cycle.competition import CompetitionResult, compete
from kg_context.cycle.models import (
    BroadcastContext,
    Candidate,
    CandidateOrigin,
    EntryRecord,
    SubscriberReport,
    TaskValue,
)
from kg_context.cycle.proposals import DURABLE_KINDS, GateSink, to_gate_proposal
from kg_context.cycle.recalling import RecallOutcome, admit_non_standing, as_recaller
from kg_context.cycle.source import EntrySource, GraphEntrySource, RecallGate
from kg_context.cycle.thoughts import (
    BusThought,
    GateOutcomeRow,
    GraphThoughtLog,
    ThoughtLog,
    bus_thoughts,
)
from kg_context.cycle.tokens import CountTokens, model_token_counter
from kg_context.cycle.workspace import ConsciousWorkspace
from kg_context.errors import ConfigurationError
from kg_context.settings import CycleSettings, load_settings
from kg_context.vocabulary import CYCLE_INELIGIBLE, ThoughtOutcome

__all__ = ["Answer", "BusGateOutcome", "CycleResult", "RecallOutcome", "SelectionBroadcastCycle"]


@dataclass(frozen=True, slots=True)
class Answer:
    subscriber: str
    key: str
    text: str
    exact: bool
    priority: float


@dataclass(frozen=True, slots=True)
class BusGateOutcome:
    """What the gate decided for one durable bus proposal (admit_fact, flag_contradiction)."""

    proposal_id: str
    bus_kind: str
    subscriber: str
    outcome: str  # commit | halt | reject, as the gate decided
    set_id: str | None
    entry_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CycleResult:
    """Everything one broadcast decided, each decision with its reason code."""

    cycle: int
    competition: CompetitionResult
    context: BroadcastContext
    reports: tuple[SubscriberReport, ...]
    arbitration: ArbitrationResult
    admission: AdmissionResult
    answers: tuple[Answer, ...]
    followups: tuple[ArbitratedProposal, ...]
    recalled_ids: tuple[str, ...]  # entered the buffer from admitted query_memory proposals
    linked_ids: tuple[str, ...]  # entered the buffer by recurrent link activation
    buffer_decisions: tuple[BufferDecision, ...]
    gate: tuple[BusGateOutcome, ...]
    recall_admissions: tuple[RecallOutcome, ...] = ()
    stale_ids: tuple[str, ...] = ()  # conscious items that stopped standing: not broadcast
    # Every bus proposal of the broadcast with its outcome (won | inhibited, and why), as kept in
    # the record (kg_context.cycle.thoughts).
    thoughts: tuple[BusThought, ...] = ()


class SelectionBroadcastCycle:
    """The runtime cycle over one boundary's graph."""

    def __init__(
        self,
        *,
        boundary_id: str,
        bus: BroadcastBus,
        source: EntrySource,
        gate: GateSink | None,
        settings: CycleSettings | None = None,
        count_tokens: CountTokens | None = None,
        run_id: str | None = None,
        recall_limit: int = 16,
        recaller: RecallGate | None = None,
        thoughts: ThoughtLog | None = None,
    ) -> None:
        """``recaller`` admits recall copies through the gate; by default the ``gate`` when it
        can (a boundary handle's ``admit``). Without one, non-standing entries a query names
        are reported (``RecallOutcome.outcome is None``) and never read into the cycle."""
        self.settings = settings or load_settings(CycleSettings)
        s = self.settings
        self.boundary_id = boundary_id
        self.bus = bus
        self.source = source
        self.gate = gate
        self.count_tokens = count_tokens or model_token_counter()
        self.run_id = run_id or f"cycle-{uuid.uuid4().hex[:16]}"
        self.recall_limit = recall_limit
        self.recaller = recaller if recaller is not None else as_recaller(gate)
        # Where every bus proposal is kept: given, else the graph of a graph source's boundary.
        self.thoughts = thoughts
        if thoughts is None and isinstance(source, GraphEntrySource):
            self.thoughts = GraphThoughtLog(source.executor, boundary_id)
        self.buffer = PreconsciousBuffer(s.buffer_capacity)
        self.workspace = ConsciousWorkspace(s.workspace_capacity)
        self.arbiter = Arbiter(RepeatKeyPenalty(s.repeat_key_penalty, s.repeat_key_penalty_decay))
        self.policy = BusAdmissionPolicy(
            min_resolve_priority=s.min_resolve_priority,
            min_query_priority=s.min_query_priority,
            suppress_queries_after_answer=s.suppress_queries_after_answer,
        )
        self.cycle = 0
        self.answer_available = False

    # -- inputs to the buffer ------------------------------------------------------------------

    def offer(self, candidates: Iterable[Candidate]) -> list[BufferDecision]:
        """Stored items (or any caller's candidates) into the preconscious buffer."""
        return self.buffer.offer(candidates)

    def offer_entries(self, ids: Sequence[str], activation: float) -> list[BufferDecision]:
        """Entries of the boundary, read from the graph in one batch, as stored candidates."""
        records = self.source.load_linked(ids)
        return self.buffer.offer(
            Candidate.from_entry(r, activation=activation, origin=CandidateOrigin.STORED)
            for r in records
        )

    def new_task(self) -> None:
        """Forget that a deterministic answer is available (queries are no longer suppressed)."""
        self.answer_available = False

    # -- one broadcast -------------------------------------------------------------------------

    def run(self, task: Mapping[str, TaskValue] | None = None) -> CycleResult:
        s = self.settings
        self.cycle += 1
        broadcast_id = f"{self.run_id}-b{self.cycle}"

        competition = compete(
            self.workspace,
            self.buffer.drain(),
            min_activation=s.min_activation,
            cycle=self.cycle,
            workspace_decay=s.workspace_decay,
        )
        buffer_decisions = self.buffer.offer(competition.waiting)
        buffer_decisions += self.buffer.decay(s.buffer_decay, s.buffer_floor)
        buffer_decisions += self.buffer.offer(competition.evicted)
        stale = self._drop_stale()

        context = format_broadcast(
            self.workspace.items(),
            broadcast_id=broadcast_id,
            cycle=self.cycle,
            token_budget=s.token_budget,
            count_tokens=self.count_tokens,
            task=task,
            answer_available=self.answer_available,
        )
        reports = self.bus.broadcast(context)
        arbitration = self.arbiter.arbitrate(broadcast_id, reports)
        admission = self.policy.apply(arbitration.accepted, answer_available=self.answer_available)
        self.answer_available = admission.answer_available
        thoughts = bus_thoughts(broadcast_id, reports, arbitration, admission)
        if self.thoughts is not None:
            self.thoughts.record(broadcast_id, self.cycle, thoughts)

        answers: list[Answer] = []
        followups: list[ArbitratedProposal] = []
        queries: list[ArbitratedProposal] = []
        durable: list[ArbitratedProposal] = []
        for item in admission.admitted():
            p = item.proposal
            if p.kind == "resolve_answer":
                answers.append(
                    Answer(item.subscriber, p.key, p.text, p.exact, item.effective_priority)
                )
            elif p.kind == "query_memory":
                queries.append(item)
            elif p.kind in DURABLE_KINDS:
                durable.append(item)
            else:
                followups.append(item)
        gate = self.gate
        if durable and gate is None:
            raise ConfigurationError(
                f"{len(durable)} admitted bus proposal(s) change durable state and this cycle has "
                "no gate: pass gate=engine.boundary(boundary_id)"
            )

        recalled, admissions = self._recall(queries)
        linked = self._link_activation()
        buffer_decisions += self.buffer.offer(recalled)
        buffer_decisions += self.buffer.offer(linked)

        gate_outcomes = self._to_gate(gate, durable) if gate is not None else ()
        self._record_gate_outcomes(thoughts, durable, gate_outcomes)
        return CycleResult(
            cycle=self.cycle,
            competition=competition,
            context=context,
            reports=reports,
            arbitration=arbitration,
            admission=admission,
            answers=tuple(answers),
            followups=tuple(followups),
            recalled_ids=tuple(c.id for c in recalled),
            linked_ids=tuple(c.id for c in linked),
            buffer_decisions=tuple(buffer_decisions),
            gate=gate_outcomes,
            recall_admissions=admissions,
            stale_ids=stale,
            thoughts=thoughts,
        )

    # -- after the broadcast -------------------------------------------------------------------

    def _drop_stale(self) -> tuple[str, ...]:
        """Conscious items whose entry no longer stands in the record leave the workspace."""
        items = self.workspace.items()
        if not items:
            return ()
        statuses = self.source.statuses([i.id for i in items])
        stale = tuple(sorted(i for i, status in statuses.items() if status in CYCLE_INELIGIBLE))
        for item_id in stale:
            self.workspace.evict(item_id)
        return stale

    def _record_gate_outcomes(
        self,
        thoughts: Sequence[BusThought],
        durable: Sequence[ArbitratedProposal],
        outcomes: Sequence[BusGateOutcome],
    ) -> None:
        """The gate's decision on each durable winner, on its thought (same order as sent)."""
        if self.thoughts is None or not outcomes:
            return
        ids = {id(t.proposal): t.id for t in thoughts if t.outcome is ThoughtOutcome.WON}
        self.thoughts.record_gate_outcomes(
            [
                GateOutcomeRow(
                    ids[id(item.proposal)], o.proposal_id, o.outcome, o.set_id, o.entry_ids
                )
                for item, o in zip(durable, outcomes, strict=True)
            ]
        )

    def _recall(
        self, queries: Sequence[ArbitratedProposal]
    ) -> tuple[list[Candidate], tuple[RecallOutcome, ...]]:
        """Admitted query_memory proposals: their entry ids and keys, read in batches; the
        non-standing ones they name by id come back only as gate-admitted recall copies."""
        if not queries:
            return [], ()
        strength: dict[str, float] = {}
        by_id: dict[str, float] = {}
        asked_by: dict[str, tuple[float, str]] = {}  # entry id -> (priority, subscriber)
        by_key: dict[str, float] = {}
        for q in queries:
            for entry_id in q.proposal.entry_ids:
                by_id[entry_id] = max(by_id.get(entry_id, 0.0), q.effective_priority)
                asked_by[entry_id] = max(
                    asked_by.get(entry_id, (0.0, q.subscriber)),
                    (q.effective_priority, q.subscriber),
                )
            by_key[q.proposal.key] = max(by_key.get(q.proposal.key, 0.0), q.effective_priority)
        records: list[tuple[EntryRecord, float]] = []
        records += [(r, by_id[r.id]) for r in self.source.load_linked(sorted(by_id))]
        records += [
            (r, by_key[r.key])
            for r in self.source.recall_by_key(sorted(by_key), self.recall_limit)
            if r.key in by_key
        ]
        copies, admissions = admit_non_standing(self.source, self.recaller, sorted(by_id), asked_by)
        if copies:
            records += [
                (r, by_id[copies[r.id]])
                for r in self.source.load_linked(sorted(copies))
                if r.id in copies
            ]
        found: dict[str, EntryRecord] = {}
        for record, priority in records:
            found[record.id] = record
            strength[record.id] = max(strength.get(record.id, 0.0), min(1.0, priority))
        candidates = [
            Candidate.from_entry(found[i], activation=strength[i], origin=CandidateOrigin.RECALLED)
            for i in sorted(found)
            if i not in self.workspace
        ]
        return candidates, admissions

    def _link_activation(self) -> list[Candidate]:
        """Conscious items activate their explicit linked_ids for the next competition."""
        gain = self.settings.link_activation_gain
        strength: dict[str, float] = {}
        sources: dict[str, list[str]] = {}
        for item in self.workspace.items():
            for target in item.candidate.linked_ids:
                if target in self.workspace:
                    continue
                strength[target] = max(strength.get(target, 0.0), item.activation * gain)
                sources.setdefault(target, []).append(item.id)
        if not strength:
            return []
        records = self.source.load_linked(sorted(strength))
        return [
            Candidate.from_entry(
                r,
                activation=min(1.0, strength[r.id]),
                origin=CandidateOrigin.LINKED,
                activated_by=tuple(sorted(sources[r.id])),
            )
            for r in records
            if r.id in strength
        ]

    def _to_gate(
        self, gate: GateSink, durable: Sequence[ArbitratedProposal]
    ) -> tuple[BusGateOutcome, ...]:
        outcomes: list[BusGateOutcome] = []
        for index, item in enumerate(durable):
            proposal = to_gate_proposal(
                item,
                proposal_id=f"{self.run_id}-b{self.cycle}-p{index}",
                boundary_id=self.boundary_id,
                broadcast_id=f"{self.run_id}-b{self.cycle}",
                contradiction_lease_sets=self.settings.contradiction_lease_sets,
            )
            decision = gate.commit(proposal)
            outcomes.append(
                BusGateOutcome(
                    proposal_id=proposal.id,
                    bus_kind=item.proposal.kind,
                    subscriber=item.subscriber,
                    outcome=decision.outcome,
                    set_id=decision.set_id,
                    entry_ids=tuple(decision.entry_ids),
                )
            )
        return tuple(outcomes)
