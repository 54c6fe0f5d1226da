"""kg-context: a governed-context engine on Neo4j.

The public surface is what ``__all__`` lists; everything else is internal.
"""

from kg_context.attention import (
    AttentionScope,
    AttentionScore,
    BroadcastResult,
    ScoredProposal,
    WorkspaceAttention,
    register_consensus_operator,
    reset_workspace_attention_telemetry,
    workspace_attention_telemetry,
)
from kg_context.cycle import (
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    CycleResult,
    GraphEntrySource,
    SelectionBroadcastCycle,
    SubscriberReport,
)
from kg_context.db.catalog import Catalog, Query, default_catalog
from kg_context.db.connection import Target, resolve_source, target_for
from kg_context.db.executor import Neo4jExecutor, QueryExecutor, RetryCounts, Transaction
from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import (
    AuthenticationError,
    AuthorityRefused,
    AuthorizationError,
    CatalogError,
    ConfigurationError,
    DatabaseError,
    DatabaseNotFoundError,
    DatabaseUnavailableError,
    EmbeddingError,
    InputRefused,
    InputValidationError,
    KgContextError,
    LocalServerError,
    ModelOutputError,
    OperatorActRefused,
    OutputProblem,
    QueryError,
    RefusalError,
    ReservedIdError,
    SchemaError,
    StateError,
)
from kg_context.gate.batch import CitedEntry
from kg_context.gate.boundary import Boundary
from kg_context.gate.constitution import Constitution, load_constitution, parse_constitution
from kg_context.gate.contracts import (
    EntryClass,
    EntryProposal,
    Proposal,
    ResidencyPolicy,
    Verse,
    WriterKind,
    parse_proposal,
)
from kg_context.gate.decision import Decision
from kg_context.gate.halts import Halts, Resolution
from kg_context.gate.model_io import (
    ProposalDraft,
    commit_model_output,
    parse_model_output,
    proposal_schema,
)
from kg_context.loop import LoopAttempt, LoopResult, run_agent_loop
from kg_context.record import history, ontology
from kg_context.record.invalidation import BlastRadius, challenge, invalidate
from kg_context.record.observability import ErrorRates, ObservabilityReport
from kg_context.record.observability import audit as audit_errors
from kg_context.record.observability import rates as error_rates
from kg_context.record.search import RecordHit, embed_pending, search_record
from kg_context.residency.context import Context, ContextManifest
from kg_context.residency.czar import CzarReport, run_czar
from kg_context.residency.metrics import BoundaryStats, stats
from kg_context.residency.reachability import Reachability, RootPath, reachable, why
from kg_context.residency.recall import Admission, admit, recall
from kg_context.residency.window import Window, window
from kg_context.settings import (
    AttentionSettings,
    CycleSettings,
    EmbeddingSettings,
    EngineSettings,
    InvalidationSettings,
    LocalServerSettings,
    Neo4jSettings,
    ResidencySettings,
    SchemaSettings,
    SearchSettings,
)

__version__ = "0.1.0"

__all__ = [
    "Admission",
    "AttentionScope",
    "AttentionScore",
    "AttentionSettings",
    "AuthenticationError",
    "AuthorityRefused",
    "AuthorizationError",
    "BlastRadius",
    "Boundary",
    "BoundaryHandle",
    "BoundaryStats",
    "BroadcastBus",
    "BroadcastContext",
    "BroadcastResult",
    "BusProposal",
    "BusSubscriber",
    "Catalog",
    "CatalogError",
    "CitedEntry",
    "ConfigurationError",
    "Constitution",
    "Context",
    "ContextManifest",
    "CycleResult",
    "CycleSettings",
    "CzarReport",
    "DatabaseError",
    "DatabaseNotFoundError",
    "DatabaseUnavailableError",
    "Decision",
    "EmbeddingError",
    "EmbeddingSettings",
    "Engine",
    "EngineSettings",
    "EntryClass",
    "EntryProposal",
    "ErrorRates",
    "GraphEntrySource",
    "Halts",
    "InputRefused",
    "InputValidationError",
    "InvalidationSettings",
    "KgContextError",
    "LocalServerError",
    "LocalServerSettings",
    "LoopAttempt",
    "LoopResult",
    "ModelOutputError",
    "Neo4jExecutor",
    "Neo4jSettings",
    "ObservabilityReport",
    "OperatorActRefused",
    "OutputProblem",
    "Proposal",
    "ProposalDraft",
    "Query",
    "QueryError",
    "QueryExecutor",
    "Reachability",
    "RecordHit",
    "RefusalError",
    "ReservedIdError",
    "ResidencyPolicy",
    "ResidencySettings",
    "Resolution",
    "RetryCounts",
    "RootPath",
    "SchemaError",
    "SchemaSettings",
    "ScoredProposal",
    "SearchSettings",
    "SelectionBroadcastCycle",
    "StateError",
    "SubscriberReport",
    "Target",
    "Transaction",
    "Verse",
    "Window",
    "WorkspaceAttention",
    "WriterKind",
    "__version__",
    "admit",
    "audit_errors",
    "challenge",
    "commit_model_output",
    "default_catalog",
    "embed_pending",
    "error_rates",
    "history",
    "invalidate",
    "load_constitution",
    "ontology",
    "parse_constitution",
    "parse_model_output",
    "parse_proposal",
    "proposal_schema",
    "reachable",
    "recall",
    "register_consensus_operator",
    "reset_workspace_attention_telemetry",
    "resolve_source",
    "run_agent_loop",
    "run_czar",
    "search_record",
    "stats",
    "target_for",
    "why",
    "window",
    "workspace_attention_telemetry",
]
