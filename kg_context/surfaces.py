"""The public operations and the adapter that reaches each one from the command line, the HTTP
API and the MCP server, or why a surface deliberately has none (a table, no logic).

Each operation is implemented once, as a method of the boundary handle (``Boundary``: what
``Engine.boundary`` returns), of ``Engine`` (what spans boundaries), of the operator's queue
(``Engine.halts``) or of ``WorkspaceAttention``; the CLI, HTTP and MCP adapters call it. A CLI
command is named by its words (``halts resolve``; ``audit {audit}`` is one command per audit file
of ``cypher/audits/``), a route by its method and path template, an MCP tool by its name.
tests/unit/test_surfaces.py checks this table against the classes and the three surfaces, and
docs/surfaces.md shows it (``python -m tests.docs_surfaces``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MCP_TOOLS", "OPERATIONS", "SURFACE_ONLY", "Absent", "Operation", "Reach"]


@dataclass(frozen=True, slots=True)
class Absent:
    """No adapter on this surface, on purpose: why."""

    reason: str


Reach = tuple[str, ...] | Absent


@dataclass(frozen=True, slots=True)
class Operation:
    """One public method (``owner.name``) and what reaches it on each surface."""

    owner: str
    name: str
    cli: Reach
    http: Reach
    mcp: Reach


# The MCP server's tools, in the order it lists them (``api.mcp_server.TOOL_NAMES``; here, in
# the base, so the CLI's help for ``kg-context mcp`` names them without loading the server).
MCP_TOOLS: tuple[str, ...] = ("context", "propose", "recall", "why", "history", "halts")

_B = "/boundaries/{boundary_id}"
WRITER_ACT = Absent("a writer's act, not an operator's")
OPERATOR_ACT = Absent("an operator's act, not an agent's")
OPERATOR_READ = Absent("an operator's reading, not an agent's context")
LIFECYCLE = Absent("a Python-only lifecycle call")
SHELL_ONLY = Absent("run from the operator's shell, beside the database")
ONE_SET = Absent("propose decides its own set and returns the decision")

OPERATIONS: tuple[Operation, ...] = (
    # The boundary handle: proposals and sets.
    Operation("Boundary", "submit", WRITER_ACT, (f"POST {_B}/proposals",), ONE_SET),
    Operation("Boundary", "close", WRITER_ACT, (f"POST {_B}/close",), ONE_SET),
    Operation("Boundary", "commit", WRITER_ACT, (f"POST {_B}/commit",), ("propose",)),
    Operation(
        "Boundary",
        "commit_many",
        WRITER_ACT,
        Absent("one proposal per request (commit); a batch is the Python API's"),
        ONE_SET,
    ),
    Operation(
        "Boundary",
        "decision",
        Absent("a writer's read-back after submit, not an operator's"),
        (f"GET {_B}/proposals/{{proposal_id}}/decision",),
        ONE_SET,
    ),
    Operation(
        "Boundary",
        "state",
        Absent("kg-context stats shows the seq and the counts"),
        (f"PUT {_B}", f"GET {_B}"),
        OPERATOR_READ,
    ),
    # The constitution and the operator's acts on one boundary.
    Operation(
        "Boundary",
        "propose_constitution",
        ("constitution propose",),
        Absent("an operator authors a constitution from a file, in the shell"),
        OPERATOR_ACT,
    ),
    Operation("Boundary", "constitution", ("constitution show",), SHELL_ONLY, OPERATOR_READ),
    Operation(
        "Boundary",
        "constitution_at",
        Absent("a read by version, for a Python caller that holds one"),
        Absent("a read by version, for a Python caller that holds one"),
        Absent("a read by version, for a Python caller that holds one"),
    ),
    Operation(
        "Boundary",
        "suggest_amendments",
        ("constitution suggest",),
        SHELL_ONLY,
        OPERATOR_READ,
    ),
    Operation(
        "Boundary",
        "adopt_suggestion",
        ("constitution adopt-suggestion",),
        Absent("an operator adopts an amendment from the shell"),
        OPERATOR_ACT,
    ),
    Operation(
        "Boundary",
        "revoke",
        ("revoke writer", "revoke adoption", "revoke foundational", "revoke credential"),
        (f"POST {_B}/revocations",),
        OPERATOR_ACT,
    ),
    Operation(
        "Boundary", "revocations", ("revoke list",), (f"GET {_B}/revocations",), OPERATOR_READ
    ),
    Operation(
        "Boundary",
        "credential_revoked",
        Absent("the API's token check asks it on every request"),
        Absent("the API's token check asks it on every request"),
        Absent("the API's token check asks it on every request"),
    ),
    Operation("Boundary", "verify_ledger", ("audit verify",), SHELL_ONLY, OPERATOR_READ),
    # Residency: the window, the context, the czar.
    Operation(
        "Boundary",
        "window",
        ("window",),
        (f"GET {_B}/window",),
        Absent("an agent reads the window as context, within its budget"),
    ),
    Operation("Boundary", "context", ("context",), (f"GET {_B}/context",), ("context",)),
    Operation("Boundary", "stats", ("stats",), (f"GET {_B}/stats",), OPERATOR_READ),
    Operation("Boundary", "why", ("why",), (f"GET {_B}/entries/{{entry_id}}/why",), ("why",)),
    Operation("Boundary", "run_czar", ("czar run",), SHELL_ONLY, OPERATOR_ACT),
    Operation(
        "Boundary",
        "embed_pending",
        ("embed",),
        Absent("an operator's worker (commits embed by default)"),
        OPERATOR_ACT,
    ),
    # The record: recall, history, search, invalidation, briefings, audits.
    Operation("Boundary", "recall", ("recall",), (f"GET {_B}/recall",), ("recall",)),
    Operation(
        "Boundary",
        "admit",
        WRITER_ACT,
        (f"POST {_B}/recall/admit",),
        Absent("an agent writes only through propose"),
    ),
    Operation(
        "Boundary", "history_index", ("history index",), (f"GET {_B}/history",), ("history",)
    ),
    Operation(
        "Boundary", "walk", ("history walk",), (f"GET {_B}/history/sets/{{set_id}}",), ("history",)
    ),
    Operation(
        "Boundary", "as_of", ("history as-of",), (f"GET {_B}/history/as-of/{{seq}}",), ("history",)
    ),
    Operation(
        "Boundary",
        "search",
        ("history search",),
        (f"GET {_B}/history/search",),
        Absent("an agent searches the record with recall"),
    ),
    Operation(
        "Boundary",
        "search_thoughts",
        ("history search",),
        Absent("an analyst's question (kg-context history search --thoughts)"),
        Absent("an analyst's question (kg-context history search --thoughts)"),
    ),
    Operation(
        "Boundary",
        "challenge",
        ("invalidation challenge",),
        (f"POST {_B}/invalidations",),
        OPERATOR_ACT,
    ),
    Operation(
        "Boundary",
        "invalidate",
        ("invalidation invalidate",),
        (f"POST {_B}/invalidations",),
        OPERATOR_ACT,
    ),
    Operation("Boundary", "brief", ("brief",), (f"GET {_B}/brief",), OPERATOR_READ),
    Operation("Boundary", "record_brief", ("brief",), (f"POST {_B}/briefings",), OPERATOR_ACT),
    Operation("Boundary", "audit", ("audit false-retirements",), SHELL_ONLY, OPERATOR_READ),
    Operation("Boundary", "rates", ("audit rates",), SHELL_ONLY, OPERATOR_READ),
    Operation(
        "Boundary",
        "halts",
        Absent("kg-context halts list --boundary B reads the operator's queue (Engine.halts)"),
        (f"GET {_B}/halts",),
        ("halts",),
    ),
    # The engine: what spans boundaries, and its lifecycle.
    Operation("Engine", "connect", LIFECYCLE, LIFECYCLE, LIFECYCLE),
    Operation("Engine", "close", LIFECYCLE, LIFECYCLE, LIFECYCLE),
    Operation("Engine", "warm", LIFECYCLE, LIFECYCLE, LIFECYCLE),
    Operation("Engine", "czar_idle", LIFECYCLE, LIFECYCLE, LIFECYCLE),
    Operation(
        "Engine",
        "check_schema",
        Absent("connect checks the schema; kg-context schema apply applies it"),
        Absent("connect checks the schema when the server starts"),
        Absent("connect checks the schema when the server starts"),
    ),
    Operation(
        "Engine",
        "boundary",
        Absent("the commands open an existing boundary; a writer's engine creates one"),
        (f"PUT {_B}",),
        Absent("the server serves one existing boundary"),
    ),
    Operation("Engine", "set_czar_cadence", ("czar cadence",), SHELL_ONLY, OPERATOR_ACT),
    Operation("Engine", "run_due_czars", ("czar watch",), SHELL_ONLY, OPERATOR_ACT),
    Operation(
        "Engine",
        "adopt",
        ("adopt",),
        Absent("an operator issues an adoption receipt from the shell"),
        OPERATOR_ACT,
    ),
    Operation(
        "Engine", "run_audit", ("audit {audit}", "attention wave"), SHELL_ONLY, OPERATOR_READ
    ),
    Operation("Engine", "invariants", ("audit all",), SHELL_ONLY, OPERATOR_READ),
    Operation(
        "Engine",
        "overview",
        Absent("the gauges of GET /metrics, for a scraper"),
        ("GET /metrics",),
        OPERATOR_READ,
    ),
    Operation(
        "Engine",
        "retry_counts",
        Absent("the counters of GET /metrics, for a scraper"),
        ("GET /metrics",),
        OPERATOR_READ,
    ),
    Operation(
        "Engine",
        "ping",
        Absent("every command that connects makes a round trip"),
        ("GET /healthz",),
        Absent("an MCP client's transport says whether the server answers"),
    ),
    Operation("Engine", "server_version", ("db info", "db up"), SHELL_ONLY, SHELL_ONLY),
    # The operator's queue: halts and at-risk entries across boundaries.
    Operation(
        "Engine.halts",
        "list",
        ("halts list",),
        Absent(f"one boundary's halts: GET {_B}/halts (Boundary.halts)"),
        Absent("one boundary's halts: the halts tool (Boundary.halts)"),
    ),
    Operation(
        "Engine.halts", "show", ("halts show",), (f"GET {_B}/halts/{{halt_id}}",), OPERATOR_READ
    ),
    Operation(
        "Engine.halts",
        "resolve",
        ("halts resolve",),
        (f"POST {_B}/halts/{{halt_id}}/resolve",),
        OPERATOR_ACT,
    ),
    Operation("Engine.halts", "at_risk", ("halts at-risk",), SHELL_ONLY, OPERATOR_READ),
    Operation("Engine.halts", "figures", ("halts at-risk",), SHELL_ONLY, OPERATOR_READ),
    Operation("Engine.halts", "resolve_at_risk", ("halts revalidate",), SHELL_ONLY, OPERATOR_ACT),
    # Workspace attention (its own room: the engine does not import it).
    Operation(
        "WorkspaceAttention",
        "select_and_broadcast",
        WRITER_ACT,
        (f"POST {_B}/attention/waves",),
        Absent("an agent writes only through propose"),
    ),
    Operation(
        "WorkspaceAttention",
        "attention_score",
        ("attention score",),
        ("GET /specialists/{specialist_id}/attention",),
        Absent("an orchestrator's reading, not an agent's context"),
    ),
)

# What a surface offers that is no operation of the engine: setting up and serving it.
SURFACE_ONLY: dict[str, dict[str, str]] = {
    "cli": {
        "neo4j start": "starts the local Neo4j server",
        "neo4j stop": "stops the local Neo4j server",
        "neo4j status": "the local Neo4j server's state",
        "schema apply": "applies the schema to the database (kg_context.db.schema)",
        "schema json": "prints the JSON Schemas of the proposal and the constitution",
        "constitution validate": "checks a constitution file, no database",
        "audit list": "lists the audit files, no database",
        "exit-codes": "lists the CLI's exit codes",
        "serve": "serves the HTTP API",
        "mcp": "serves the MCP server",
        "demo": "the scripted multi-agent session, over the Python API",
    },
    "http": {
        "GET /openapi.json": "FastAPI's OpenAPI spec",
        "GET /docs": "FastAPI's interactive docs",
        "GET /docs/oauth2-redirect": "FastAPI's interactive docs",
        "GET /redoc": "FastAPI's interactive docs",
    },
    "mcp": {},
}
