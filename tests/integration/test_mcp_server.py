"""The MCP server over stdio, driven by the SDK's own client against the real database:
``python -m kg_context.cli mcp BOUNDARY`` as a subprocess, bound to a token of the API's table."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from kg_context import proposal_schema
from tests.docs_blocks import REPO
from tests.factories import seed_datastore_with_retired_fact
from tests.integration.test_reads_never_write import fingerprint

WRITER_TOKEN = "writer-token-for-the-mcp-test-0001"
READER_TOKEN = "reader-token-for-the-mcp-test-0001"


def _env(target: Any, token: str, boundary_id: str) -> dict[str, str]:
    tokens = [
        {
            "token": WRITER_TOKEN,
            "scope": "writer",
            "writer_id": "mcp-model",
            "writer_kind": "model",
            "boundaries": [boundary_id],
        },
        {
            "token": READER_TOKEN,
            "scope": "reader",
            "writer_id": "mcp-reader",
            "writer_kind": "model",
        },
    ]
    return {
        "NEO4J_URI": target.uri,
        "NEO4J_USERNAME": target.username,
        "NEO4J_PASSWORD": target.password,
        "NEO4J_DATABASE": target.database,
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
        "HF_HUB_OFFLINE": "1",
        "KG_CONTEXT_API_TOKENS": json.dumps(tokens),
        "KG_CONTEXT_MCP_TOKEN": token,
    }


def _server(target: Any, token: str, boundary_id: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "kg_context.cli", "mcp", boundary_id, "--transport", "stdio"],
        env=_env(target, token, boundary_id),
        cwd=str(REPO),
    )


def _text(result: CallToolResult) -> str:
    return "\n".join(str(getattr(block, "text", "")) for block in result.content)


def _pending(engine: Any, boundary_id: str) -> list[str]:
    """The boundary's entries still waiting for an embedding (none: each commit embeds what it
    wrote)."""
    rows = engine.executor.read(
        "record/pending_embeddings", boundary_id=boundary_id, batch=100, up_to_seq=1_000
    )
    return sorted(str(r["id"]) for r in rows)


def test_an_agent_reads_and_proposes_through_mcp_and_a_reader_cannot_propose(
    czar_free_engine: Any, neo4j_target: Any, boundary_id: str
) -> None:
    boundary = seed_datastore_with_retired_fact(czar_free_engine, boundary_id)
    good = {
        "targets": ["graph-schema"],
        "entries": [
            {
                "id": "e-schema",
                "class": "decision",
                "key": "graph-schema",
                "body": "Users and follows are nodes and relationships",
                "derived_from": [{"entry_id": "e-db"}],
            }
        ],
    }
    found: dict[str, Any] = {}

    async def as_writer() -> None:
        async with Client(
            _server(neo4j_target, WRITER_TOKEN, boundary_id), read_timeout_seconds=120
        ) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            found["tools"] = tools
            found["context"] = await client.call_tool("context", {"budget_tokens": 2000})
            before = fingerprint(czar_free_engine, boundary_id)[:3]
            found["recall"] = await client.call_tool("recall", {"query": "Postgres query"})
            found["context_q"] = await client.call_tool(
                "context", {"budget_tokens": 2000, "query": "Postgres query"}
            )
            found["why"] = await client.call_tool("why", {"entry_id": "e-db"})
            found["why_missing"] = await client.call_tool("why", {"entry_id": "e-nowhere"})
            found["as_of"] = await client.call_tool("history", {"as_of": 1})
            found["halts"] = await client.call_tool("halts", {})
            found["read_only"] = before == fingerprint(czar_free_engine, boundary_id)[:3]
            found["pending"] = _pending(czar_free_engine, boundary_id)
            found["propose"] = await client.call_tool("propose", {"proposal": good})
            found["walk"] = await client.call_tool(
                "history", {"set_id": found["propose"].structured_content["decision"]["set_id"]}
            )
            found["ghost"] = await client.call_tool(
                "propose",
                {"proposal": json.dumps({**good, "entries": [{
                    **good["entries"][0], "id": "e-other", "key": "other",
                    "requires": [{"entry_id": "e-bench", "policy": "hard"}]}]})},
            )  # fmt: skip
            found["malformed"] = await client.call_tool(
                "propose", {"proposal": {"entries": [{"class": "decision", "body": "b"}]}}
            )

    async def as_reader() -> None:
        async with Client(
            _server(neo4j_target, READER_TOKEN, boundary_id), read_timeout_seconds=120
        ) as client:
            found["reader_context"] = await client.call_tool("context", {"budget_tokens": 500})
            found["reader_propose"] = await client.call_tool("propose", {"proposal": good})

    anyio.run(as_writer)

    # the tools, with the proposal schema as propose's input
    tools = found["tools"]
    assert set(tools) == {"context", "propose", "recall", "why", "history", "halts"}
    assert tools["propose"].input_schema["properties"]["proposal"] == proposal_schema()
    assert all(tools[n].annotations.read_only_hint for n in tools if n != "propose")
    assert tools["propose"].annotations.read_only_hint is False

    context = found["context"]
    assert not context.is_error and "e-db datastore: Use Neo4j" in _text(context)
    assert context.structured_content["budget_tokens"] == 2000
    assert context.structured_content["tokens"] <= 2000
    assert "manifest" in context.structured_content

    assert not found["context_q"].is_error and "e-bench" in _text(found["context_q"])

    recall = found["recall"]
    assert not recall.is_error
    hits = {h["entry_id"]: h for h in recall.structured_content["hits"]}
    assert hits["e-bench"]["status"] == "retired" and "retired" in hits["e-bench"]["tag"]

    why = found["why"]
    assert not why.is_error and why.structured_content["held"] is True
    missing = found["why_missing"]
    assert missing.is_error
    assert missing.structured_content["error"]["type"] == "StateError"
    assert missing.structured_content["error"]["context"] == {
        "boundary_id": boundary_id,
        "entry_id": "e-nowhere",
    }
    assert _text(why).startswith("e-db (live, resident)")
    as_of = found["as_of"]
    assert {e["id"] for e in as_of.structured_content["entries"]} >= {"e-db", "e-bench"}
    assert found["halts"].structured_content == {"halts": []}
    assert found["read_only"], "a read tool changed a node, relationship or property"

    # propose: stamped with the token's identity, decided, told back
    proposed = found["propose"]
    assert not proposed.is_error, _text(proposed)
    decision = proposed.structured_content["decision"]
    assert decision["outcome"] == "commit" and decision["entry_ids"] == ["e-schema"]
    assert _text(proposed).startswith(f"COMMITTED: set {decision['set_id']}")
    walked = boundary.walk(decision["set_id"])
    assert walked.writer_id == "mcp-model" and walked.status == "ratified"
    assert found["walk"].structured_content["set_id"] == decision["set_id"]

    ghost = found["ghost"]
    assert not ghost.is_error  # a halt is a decision, not a tool failure
    assert ghost.structured_content["decision"]["reason_code"] == "NON_STANDING_DEPENDENCY"
    assert ghost.structured_content["decision"]["not_standing"] == [
        {
            "entry_id": "e-bench",
            "boundary_id": boundary_id,
            "status": "retired",
            "cited_as": "requires",
            "by": "e-other",
        }
    ]
    assert f"- e-bench: retired in boundary {boundary_id}" in _text(ghost)

    malformed = found["malformed"]
    assert malformed.is_error
    error = malformed.structured_content["error"]
    assert error["type"] == "ModelOutputError"
    assert error["problems"][0]["path"] == "$.entries[0].key"
    assert "- $.entries[0].key: expected a value" in _text(malformed)

    # a reader reads, and is refused a proposal: a typed error, nothing recorded
    seq = boundary.state().seq
    anyio.run(as_reader)
    assert not found["reader_context"].is_error
    refused = found["reader_propose"]
    assert refused.is_error
    assert refused.structured_content["error"]["type"] == "AuthorizationError"
    assert "needs writer" in refused.structured_content["error"]["message"]
    # the error's context rides along: which boundary, and who asked
    assert refused.structured_content["error"]["context"] == {
        "boundary_id": boundary_id,
        "writer_id": "mcp-reader",
    }
    assert boundary.state().seq == seq
    dirty = [a.audit.name for a in czar_free_engine.invariants(boundary_id) if not a.clean]
    assert dirty == []


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_over_streamable_http_each_request_brings_its_token(
    czar_free_engine: Any, neo4j_target: Any, boundary_id: str
) -> None:
    boundary = seed_datastore_with_retired_fact(czar_free_engine, boundary_id)
    port = _free_port()
    env = {**os.environ, **_env(neo4j_target, "", boundary_id)}
    env.pop("KG_CONTEXT_MCP_TOKEN")
    server = subprocess.Popen(
        [sys.executable, "-m", "kg_context.cli", "mcp", boundary_id, "--transport", "http",
         "--port", str(port)],
        env=env, cwd=str(REPO), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/mcp"
    found: dict[str, Any] = {}

    async def call(token: str, name: str, arguments: dict[str, Any]) -> CallToolResult:
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            return await client.call_tool(name, arguments)

    async def run() -> None:
        with anyio.fail_after(120):
            while True:  # the server is up when it answers
                try:
                    async with httpx2.AsyncClient() as probe:
                        found["anonymous"] = (await probe.post(url, json={})).status_code
                    break
                except httpx2.TransportError:
                    assert server.poll() is None, server.stderr.read() if server.stderr else ""
                    await anyio.sleep(0.5)
        proposed = {"targets": ["t"], "entries": [{"class": "fact", "key": "k", "body": "b",
                    "attributes": {"source": "the test"}}]}  # fmt: skip
        found["writer"] = await call(WRITER_TOKEN, "propose", {"proposal": proposed})
        found["reader_why"] = await call(READER_TOKEN, "why", {"entry_id": "e-db"})
        found["reader"] = await call(READER_TOKEN, "propose", {"proposal": proposed})

    try:
        anyio.run(run)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert found["anonymous"] == 401
    writer = found["writer"]
    assert not writer.is_error and writer.structured_content["decision"]["outcome"] == "commit"
    assert boundary.walk(writer.structured_content["decision"]["set_id"]).writer_id == "mcp-model"
    assert not found["reader_why"].is_error
    assert found["reader"].is_error
    assert found["reader"].structured_content["error"]["type"] == "AuthorizationError"
