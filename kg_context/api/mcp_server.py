"""The MCP server (``kg-context mcp``): one boundary's context, proposals, recall, why, history
and halts as tools an agent calls, on the official ``mcp`` SDK (stdio, or streamable HTTP).

Identity is the HTTP API's: the token table (``KG_CONTEXT_API_TOKENS_FILE`` /
``KG_CONTEXT_API_TOKENS``) resolves a token to a writer id, kind, scope and reach. Over stdio
the server runs as the one token it is given (``KG_CONTEXT_MCP_TOKEN``); over HTTP every request
brings its own bearer token. Every tool needs a reader; ``propose`` needs a writer, and the
proposal is stamped with the token's identity (a proposal never names one). Read tools never
write (``recall`` searches without first embedding what is pending). A refusal or bad input
comes back as a tool error whose structured content names the error type and its facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Annotated, Any, Literal

import anyio
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from kg_context.api.auth import Principal, Scope, TokenTable
from kg_context.api.models import HaltOut
from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import (
    AuthorizationError,
    ConfigurationError,
    InputValidationError,
    KgContextError,
    ModelOutputError,
)
from kg_context.gate.io.collector import startup_frozen
from kg_context.gate.pure.model_io import commit_model_output, proposal_schema
from kg_context.settings import ApiSettings, load_settings
from kg_context.surfaces import MCP_TOOLS
from kg_context.vocabulary import HaltStatus

__all__ = ["TOOL_NAMES", "McpSettings", "McpTools", "create_mcp_server", "serve_mcp"]

TOOL_NAMES = MCP_TOOLS
Transport = Literal["stdio", "http"]
_READ = ToolAnnotations(read_only_hint=True, idempotent_hint=True)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False)


class McpSettings(BaseSettings):
    """``KG_CONTEXT_MCP_*``: the token the server runs as over stdio (one of the API's token
    table), and where it listens over streamable HTTP."""

    model_config = SettingsConfigDict(env_prefix="KG_CONTEXT_MCP_", env_file=".env", extra="ignore")

    token: SecretStr | None = None
    host: str = "127.0.0.1"
    port: int = Field(default=8788, ge=1, le=65535)


def _ok(text: str, data: Mapping[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=dict(data)
    )


def _refused(error: KgContextError) -> CallToolResult:
    """A typed error result: the error's class, its one-line message, its context (the
    boundary, halt, set, entry, proposal, writer and reason code it names, where it names any)
    and, for a model's output, every problem (JSON path, expected, given) and the feedback
    text."""
    facts: dict[str, Any] = {"type": type(error).__name__, "message": str(error)}
    if error.context:
        facts["context"] = error.context
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, ModelOutputError):
        facts["problems"] = [asdict(p) for p in error.problems]
        text = error.feedback()
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"error": facts},
        is_error=True,
    )


class McpTools:
    """The tools of one boundary, each resolving who calls it (the bound principal over stdio,
    the request's bearer token over HTTP) and calling the library once."""

    def __init__(
        self,
        engine: Engine,
        boundary_id: str,
        tokens: TokenTable,
        bound: Principal | None = None,
    ) -> None:
        self._engine = engine
        self._tokens = tokens
        self._bound = bound
        self.boundary_id = boundary_id

    def principal(self, needed: Scope) -> Principal:
        """Who calls, if it may do what needs ``needed`` in this boundary."""
        principal = self._bound
        if principal is None:
            access = get_access_token()
            principal = self._tokens.authenticate(access.token) if access is not None else None
        if principal is None:
            raise AuthorizationError(
                "no credential: send a bearer token from the token table",
                boundary_id=self.boundary_id,
            )
        if principal.scope.rank < needed.rank:
            raise AuthorizationError(
                f"a {principal.scope} credential may not do this; it needs {needed} "
                f"(writer {principal.writer_id})",
                boundary_id=self.boundary_id,
                writer_id=principal.writer_id,
            )
        if not principal.reaches(self.boundary_id):
            raise AuthorizationError(
                f"this credential does not reach {self.boundary_id}",
                boundary_id=self.boundary_id,
                writer_id=principal.writer_id,
            )
        return principal

    def _handle(self) -> BoundaryHandle:
        return self._engine.boundary(self.boundary_id, create=False)

    async def _call(
        self, needed: Scope, work: Callable[[Principal], CallToolResult]
    ) -> CallToolResult:
        try:
            principal = self.principal(needed)
            return await anyio.to_thread.run_sync(work, principal)
        except KgContextError as error:
            return _refused(error)

    async def context(
        self,
        budget_tokens: Annotated[int, Field(ge=0, le=1_000_000)] = 4096,
        query: Annotated[str | None, Field(max_length=2000)] = None,
    ) -> CallToolResult:
        """The boundary's governed context: entries with their ids, status tags and what they
        stand on, never over budget_tokens; with a query, status-tagged material from the
        record. The manifest says what was left out and how to bring it back."""

        def work(_: Principal) -> CallToolResult:
            block = self._handle().context(budget_tokens, query=query)
            return _ok(block.text, block.as_dict())

        return await self._call(Scope.READER, work)

    async def propose(self, proposal: dict[str, Any] | str) -> CallToolResult:
        """Propose one set: the proposal (its JSON Schema is this tool's input schema) is
        stamped with this credential's writer identity and decided by the constitution gate.
        Returns the decision and feedback: committed ids, or why not and what to change."""

        def work(principal: Principal) -> CallToolResult:
            decision = commit_model_output(
                self._handle(),
                proposal,
                writer_id=principal.writer_id,
                writer_kind=principal.writer_kind,
            )
            shaped = decision.as_dict()
            return _ok(shaped["feedback"], {"decision": shaped})

        return await self._call(Scope.WRITER, work)

    async def recall(
        self,
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        k: Annotated[int, Field(ge=1, le=100)] = 10,
    ) -> CallToolResult:
        """Candidates from the record for a query, each with its status tag (matched in set N,
        retired, superseded by X). Changes nothing; admission goes through the gate."""

        def work(_: Principal) -> CallToolResult:
            hits = self._handle().recall(query, k=k)
            rows = [h.as_dict() for h in hits]
            text = "\n".join(f"{h.entry_id} ({h.key!r}): {h.tag()}" for h in hits)
            return _ok(text or "no match in the record", {"hits": rows})

        return await self._call(Scope.READER, work)

    async def why(
        self, entry_id: Annotated[str, Field(min_length=1, max_length=200)]
    ) -> CallToolResult:
        """Why an entry is resident: its root path, or that nothing holds it."""

        def work(_: Principal) -> CallToolResult:
            shaped = self._handle().why(entry_id).as_dict()
            return _ok(shaped["text"], shaped)

        return await self._call(Scope.READER, work)

    async def history(
        self,
        set_id: Annotated[str | None, Field(max_length=200)] = None,
        as_of: Annotated[int | None, Field(ge=0)] = None,
        from_seq: Annotated[int, Field(ge=0)] = 0,
        limit: Annotated[int, Field(ge=1, le=1000)] = 50,
    ) -> CallToolResult:
        """The record's history: with set_id, the walk of that set (what it decided and what
        became of it); with as_of, the record and window right after that seq; with neither,
        the index of ratified sets from from_seq."""

        def work(_: Principal) -> CallToolResult:
            boundary = self._handle()
            if set_id is not None and as_of is not None:
                raise InputValidationError(
                    "history takes set_id or as_of, not both", boundary_id=self.boundary_id
                )
            if set_id is not None:
                walked = boundary.walk(set_id)
                return _ok("\n".join(walked.lines()), walked.as_dict())
            if as_of is not None:
                view = boundary.as_of(as_of)
                text = "\n".join(
                    f"{e.id} ({e.entry_class} {e.key!r}): {e.status}"
                    + (", resident" if e.resident else "")
                    for e in view.entries
                )
                return _ok(text or f"nothing recorded at seq {view.seq}", view.as_dict())
            lines = boundary.history_index(from_seq=from_seq, limit=limit)
            index = [line.as_dict() for line in lines]
            return _ok("\n".join(line.line() for line in lines) or "no set yet", {"index": index})

        return await self._call(Scope.READER, work)

    async def halts(
        self, include_resolved: bool = False, limit: Annotated[int, Field(ge=1, le=1000)] = 20
    ) -> CallToolResult:
        """The boundary's halts, newest first: open ones (or all, with include_resolved): the
        reason code, the detail and the amendment an operator would make."""

        def work(_: Principal) -> CallToolResult:
            status = None if include_resolved else HaltStatus.OPEN
            rows = self._handle().halts(status=status, limit=limit)
            halts = [HaltOut.of(halt).model_dump(mode="json") for halt in rows]
            text = "\n".join(f"{h['id']}: {h['reason_code']} ({h['status']})" for h in halts)
            return _ok(text or "no halt", {"halts": halts})

        return await self._call(Scope.READER, work)


def _tools(tools: McpTools) -> list[Tool]:
    made = []
    for name in TOOL_NAMES:
        write = name == "propose"
        tool = Tool.from_function(
            getattr(tools, name), name=name, annotations=_WRITE if write else _READ
        )
        if write:
            schema = {
                "type": "object",
                "properties": {"proposal": proposal_schema()},
                "required": ["proposal"],
                "additionalProperties": False,
            }
            tool = tool.model_copy(update={"parameters": schema})
        made.append(tool)
    return made


class _TableVerifier:
    """The SDK's bearer check over the HTTP API's token table."""

    def __init__(self, tokens: TokenTable) -> None:
        self._tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        principal = self._tokens.authenticate(token)
        if principal is None:
            return None
        return AccessToken(token=token, client_id=principal.writer_id, scopes=[principal.scope])


def create_mcp_server(
    engine: Engine,
    boundary_id: str,
    tokens: TokenTable,
    *,
    bound: Principal | None = None,
    http_url: str | None = None,
) -> MCPServer[Any]:
    """The MCP server of one boundary: as ``bound`` (stdio), or, with ``http_url``, checking
    each request's bearer token against ``tokens`` (streamable HTTP)."""
    auth = None
    verifier = None
    if http_url is not None:
        auth = AuthSettings(
            issuer_url=http_url,
            resource_server_url=f"{http_url}/mcp",
            validate_token_resource=False,
        )
        verifier = _TableVerifier(tokens)
    tools = McpTools(engine, boundary_id, tokens, bound)
    return MCPServer(
        "kg-context",
        instructions=(
            f"Governed context of boundary {boundary_id}: read it with context (cite the ids it "
            "shows), write back only with propose (one proposal, one set), and act on the "
            "feedback each decision returns."
        ),
        tools=_tools(tools),
        auth=auth,
        token_verifier=verifier,
        log_level="WARNING",
    )


def serve_mcp(
    boundary_id: str,
    *,
    transport: Transport = "stdio",
    engine: Engine | None = None,
    host: str | None = None,
    port: int | None = None,
) -> None:
    """Run the MCP server of ``boundary_id`` until its client goes (stdio) or it is interrupted
    (HTTP). Over stdio the credential is ``KG_CONTEXT_MCP_TOKEN``; it must be a token of the
    table that reaches the boundary, or nothing starts."""
    tokens = TokenTable.from_settings(load_settings(ApiSettings))
    settings = load_settings(McpSettings)
    bound = None
    if transport == "stdio":
        if settings.token is None:
            raise ConfigurationError(
                "kg-context mcp over stdio runs as one token: set KG_CONTEXT_MCP_TOKEN to a "
                "token of the API token table"
            )
        bound = tokens.authenticate(settings.token.get_secret_value())
        if bound is None:
            raise ConfigurationError("KG_CONTEXT_MCP_TOKEN is not a token of the API token table")
        if not bound.reaches(boundary_id):
            raise ConfigurationError(
                f"KG_CONTEXT_MCP_TOKEN does not reach {boundary_id}",
                boundary_id=boundary_id,
                writer_id=bound.writer_id,
            )
    owned = engine is None
    engine = engine or Engine.connect()
    try:
        engine.boundary(boundary_id, create=False)
        if transport == "stdio":
            server = create_mcp_server(engine, boundary_id, tokens, bound=bound)
            startup_frozen()  # what startup made stays out of every full collection
            server.run("stdio")
            return
        where_host, where_port = host or settings.host, port or settings.port
        server = create_mcp_server(
            engine, boundary_id, tokens, http_url=f"http://{where_host}:{where_port}"
        )
        startup_frozen()
        server.run("streamable-http", host=where_host, port=where_port)
    finally:
        if owned:
            engine.close()
