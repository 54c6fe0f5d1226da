"""Workspace attention: score specialist outputs, select and broadcast winners.

``WorkspaceAttention`` is the entry point; the scorer (``scoring``), the consensus registry
(``consensus``), the loop telemetry (``telemetry``), the database calls (``store``) and the gate
contract (``insights``) are one module each.
"""

from kg_context.attention.consensus import (
    ConsensusOperator,
    consensus_operators,
    consensus_score,
    log_pool,
    register_consensus_operator,
)
from kg_context.attention.insights import insight_proposal
from kg_context.attention.models import (
    AttentionScope,
    AttentionScore,
    BroadcastResult,
    ConfidenceSource,
    ScoredProposal,
    SpecialistOutput,
    WinnerFate,
    WinnerOutcome,
)
from kg_context.attention.telemetry import (
    AttentionTelemetry,
    reset_workspace_attention_telemetry,
    workspace_attention_telemetry,
)
from kg_context.attention.workspace import WorkspaceAttention, load_attention_settings

__all__ = [
    "AttentionScope",
    "AttentionScore",
    "AttentionTelemetry",
    "BroadcastResult",
    "ConfidenceSource",
    "ConsensusOperator",
    "ScoredProposal",
    "SpecialistOutput",
    "WinnerFate",
    "WinnerOutcome",
    "WorkspaceAttention",
    "consensus_operators",
    "consensus_score",
    "insight_proposal",
    "load_attention_settings",
    "log_pool",
    "register_consensus_operator",
    "reset_workspace_attention_telemetry",
    "workspace_attention_telemetry",
]
