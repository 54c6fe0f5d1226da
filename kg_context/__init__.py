"""kg-context: a governed-context engine on Neo4j.

The public surface is what ``__all__`` lists; everything else is internal.
"""

from kg_context.attention import (
    BroadcastResult,
    ScoredProposal,
    WorkspaceAttention,
    register_consensus_operator,
    reset_workspace_attention_telemetry,
    workspace_attention_telemetry,
)
from kg_context.boundary import Boundary
from kg_context.catalog import Catalog, Query, default_catalog
from kg_context.connection import Target, resolve_source, target_for
from kg_context.constitution import Constitution, load_constitution, parse_constitution
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
from kg_context.engine import Engine
from kg_context.errors import (
    AuthenticationError,
    CatalogError,
    ConfigurationError,
    DatabaseError,
    DatabaseUnavailableError,
    EmbeddingError,
    InputValidationError,
    KgContextError,
    LocalServerError,
    QueryError,
    StateError,
)
from kg_context.executor import Neo4jExecutor, QueryExecutor, Transaction
from kg_context.gate import Decision
from kg_context.halts import Halts, Resolution
from kg_context.models import (
    EntryClass,
    EntryProposal,
    Proposal,
    ResidencyPolicy,
    Verse,
    WriterKind,
    parse_proposal,
)
from kg_context.settings import (
    AttentionSettings,
    CycleSettings,
    EmbeddingSettings,
    LocalServerSettings,
    Neo4jSettings,
)

__version__ = "0.1.0"

__all__ = [
    "AttentionSettings",
    "AuthenticationError",
    "Boundary",
    "BroadcastBus",
    "BroadcastContext",
    "BroadcastResult",
    "BusProposal",
    "BusSubscriber",
    "Catalog",
    "CatalogError",
    "ConfigurationError",
    "Constitution",
    "CycleResult",
    "CycleSettings",
    "DatabaseError",
    "DatabaseUnavailableError",
    "Decision",
    "EmbeddingError",
    "EmbeddingSettings",
    "Engine",
    "EntryClass",
    "EntryProposal",
    "GraphEntrySource",
    "Halts",
    "InputValidationError",
    "KgContextError",
    "LocalServerError",
    "LocalServerSettings",
    "Neo4jExecutor",
    "Neo4jSettings",
    "Proposal",
    "Query",
    "QueryError",
    "QueryExecutor",
    "ResidencyPolicy",
    "Resolution",
    "ScoredProposal",
    "SelectionBroadcastCycle",
    "StateError",
    "SubscriberReport",
    "Target",
    "Transaction",
    "Verse",
    "WorkspaceAttention",
    "WriterKind",
    "__version__",
    "default_catalog",
    "load_constitution",
    "parse_constitution",
    "parse_proposal",
    "register_consensus_operator",
    "reset_workspace_attention_telemetry",
    "resolve_source",
    "target_for",
    "workspace_attention_telemetry",
]
