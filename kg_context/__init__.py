"""kg-context: a governed-context engine on Neo4j.

The root exports what a caller needs to start: the ``Engine`` and the boundary handle it opens
(every operation on one boundary is a method of that handle), the constitution and its loaders,
the proposal, decision, context and window types, the model-I/O functions and the agent loop,
``WorkspaceAttention`` and ``SelectionBroadcastCycle``, the root of the error tree with the errors
a caller catches by type, and ``EngineSettings``.

Everything else is public in the module that defines it, and imported from there:
``kg_context.errors`` (the whole error tree), ``kg_context.settings`` (every settings class),
``kg_context.attention`` and ``kg_context.cycle`` (their result and part types),
``kg_context.gate`` (proposal contracts, halts, cited entries), ``kg_context.residency`` and
``kg_context.record`` (the result types of the handle's methods, the history and ontology
operations), ``kg_context.loop``, ``kg_context.db`` (the connection, the executor, the Cypher
catalog) and ``kg_context.vocabulary`` (every word the gate decides by).
"""

from importlib.metadata import version as _version

from kg_context.attention import WorkspaceAttention
from kg_context.cycle import SelectionBroadcastCycle
from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import (
    AuthorizationError,
    ConfigurationError,
    DatabaseError,
    DatabaseUnavailableError,
    InputValidationError,
    KgContextError,
    ModelOutputError,
    RefusalError,
    StateError,
)
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.constitution import Constitution, load_constitution, parse_constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision
from kg_context.gate.pure.model_io import (
    ProposalDraft,
    commit_model_output,
    parse_model_output,
    proposal_schema,
)
from kg_context.loop import LoopResult, run_agent_loop
from kg_context.residency.context import Context
from kg_context.residency.window import Window
from kg_context.settings import EngineSettings

__version__ = _version("kg-context")

__all__ = [
    "AuthorizationError",
    "Boundary",
    "BoundaryHandle",
    "ConfigurationError",
    "Constitution",
    "Context",
    "DatabaseError",
    "DatabaseUnavailableError",
    "Decision",
    "Engine",
    "EngineSettings",
    "InputValidationError",
    "KgContextError",
    "LoopResult",
    "ModelOutputError",
    "Proposal",
    "ProposalDraft",
    "RefusalError",
    "SelectionBroadcastCycle",
    "StateError",
    "Window",
    "WorkspaceAttention",
    "__version__",
    "commit_model_output",
    "load_constitution",
    "parse_constitution",
    "parse_model_output",
    "proposal_schema",
    "run_agent_loop",
]
