"""The selection-broadcast cycle over the governed graph.

A preconscious buffer of rankable candidates, competition with a minimum activation into a
bounded conscious workspace, broadcast formatting within a token budget, a broadcast bus with
per-subscriber timeouts and reports, arbitration with inhibition and a decaying repeat-key
penalty, the bus admission policy, recurrent link activation, gate proposals for anything
durable, and every bus proposal kept in the record as a thought (``cycle.thoughts``).
``SelectionBroadcastCycle`` ties them together; each part is usable on its own.
"""

from kg_context.cycle.admission import AdmissionDecision, AdmissionResult, BusAdmissionPolicy
from kg_context.cycle.arbitration import (
    Arbiter,
    ArbitratedProposal,
    ArbitrationResult,
    RepeatKeyPenalty,
)
from kg_context.cycle.broadcast import format_broadcast, render_line
from kg_context.cycle.buffer import BufferDecision, PreconsciousBuffer, rank
from kg_context.cycle.bus import BroadcastBus, BusSubscriber, SubscriberHandler
from kg_context.cycle.competition import CompetitionDecision, CompetitionResult, compete
from kg_context.cycle.cycle import Answer, BusGateOutcome, CycleResult, SelectionBroadcastCycle
from kg_context.cycle.models import (
    AdmissionReason,
    ArbitrationReason,
    BroadcastContext,
    BroadcastItem,
    BufferReason,
    BusProposal,
    Candidate,
    CandidateOrigin,
    CompetitionReason,
    ConsciousItem,
    EntryRecord,
    ProposalKind,
    RecallTag,
    SubscriberReport,
    SubscriberStatus,
    TaskValue,
)
from kg_context.cycle.proposals import DURABLE_KINDS, GateDecisionLike, GateSink, to_gate_proposal
from kg_context.cycle.source import EntrySource, GraphEntrySource, NonStanding, RecallGate
from kg_context.cycle.thoughts import (
    BusThought,
    GateOutcomeRow,
    GraphThoughtLog,
    ThoughtLog,
    bus_thoughts,
)
from kg_context.cycle.tokens import CountTokens, model_token_counter
from kg_context.cycle.workspace import ConsciousWorkspace

__all__ = [
    "DURABLE_KINDS",
    "AdmissionDecision",
    "AdmissionReason",
    "AdmissionResult",
    "Answer",
    "Arbiter",
    "ArbitratedProposal",
    "ArbitrationReason",
    "ArbitrationResult",
    "BroadcastBus",
    "BroadcastContext",
    "BroadcastItem",
    "BufferDecision",
    "BufferReason",
    "BusAdmissionPolicy",
    "BusGateOutcome",
    "BusProposal",
    "BusSubscriber",
    "BusThought",
    "Candidate",
    "CandidateOrigin",
    "CompetitionDecision",
    "CompetitionReason",
    "CompetitionResult",
    "ConsciousItem",
    "ConsciousWorkspace",
    "CountTokens",
    "CycleResult",
    "EntryRecord",
    "EntrySource",
    "GateDecisionLike",
    "GateOutcomeRow",
    "GateSink",
    "GraphEntrySource",
    "GraphThoughtLog",
    "NonStanding",
    "PreconsciousBuffer",
    "ProposalKind",
    "RecallGate",
    "RecallTag",
    "RepeatKeyPenalty",
    "SelectionBroadcastCycle",
    "SubscriberHandler",
    "SubscriberReport",
    "SubscriberStatus",
    "TaskValue",
    "ThoughtLog",
    "bus_thoughts",
    "compete",
    "format_broadcast",
    "model_token_counter",
    "rank",
    "render_line",
    "to_gate_proposal",
]
