"""One result, one JSON form, on the real database: the CLI's ``--json``, the HTTP body and the
MCP tool's structured result of the same read (the walk of a set, the record as of a seq) carry
the same data, the library's ``as_dict()``; a challenge through the CLI and through HTTP answers
in the same form (``BlastRadius.as_dict``; the MCP server has no challenge: an operator's act)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client

from kg_context.api.auth import TokenSpec, TokenTable
from kg_context.api.mcp_server import TOOL_NAMES, create_mcp_server
from kg_context.db.connection import Target
from kg_context.surfaces import OPERATIONS, Absent
from tests.cli import cli
from tests.factories import entry, proposal
from tests.integration.api_server import Server, running

MCP_READER = "reader-token-for-the-one-form-test-01"


@pytest.fixture(scope="module")
def server(czar_free_engine: Any) -> Iterator[Server]:
    with running(czar_free_engine, f"one-form-fenced-{uuid.uuid4().hex[:8]}") as started:
        yield started


def _seed(engine: Any, b: str) -> int:
    """A committed set (a goal, a decision, a fact the goal's loss puts at risk), then a set
    superseding the decision. The seq of the second."""
    boundary = engine.boundary(b)
    first = boundary.commit(
        proposal(
            b,
            entry(cls="goal", key="ship", body="Ship the social graph", id="e-goal"),
            entry(key="datastore", body="Use Postgres", id="e-db1"),
            entry(
                cls="fact",
                key="bench",
                body="three-hop queries take 40 ms",
                id="e-bench",
                attributes={"source": "bench run 12"},
                derived_from=[{"entry_id": "e-goal", "essential": True}],
            ),
            set_id="s-first",
            writer_id="planner",
        )
    )
    assert first.outcome == "commit", first
    second = boundary.commit(
        proposal(
            b,
            entry(
                key="datastore",
                body="Use Neo4j: the model is a graph",
                id="e-db2",
                supersedes=[{"entry_id": "e-db1", "reason": "graph model"}],
            ),
            set_id="s-second",
            writer_id="planner",
        )
    )
    assert second.outcome == "commit", second
    return int(second.seq)


def _cli_json(target: Target, *args: str) -> Any:
    done = cli(target, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _http(server: Server, method: str, path: str, role: str, **kwargs: Any) -> Any:
    response = server.call(method, path, role, **kwargs)
    assert response.status_code == 200, response.text
    return response.json()


def _mcp(engine: Any, b: str, calls: list[dict[str, Any]]) -> list[Any]:
    """The structured result of each ``history`` call, through the SDK's client in process."""
    spec = TokenSpec.model_validate(
        {"token": MCP_READER, "scope": "reader", "writer_id": "one-form", "writer_kind": "tool"}
    )
    tokens = TokenTable([spec])
    mcp = create_mcp_server(engine, b, tokens, bound=tokens.authenticate(MCP_READER))
    found: list[Any] = []

    async def run() -> None:
        async with Client(mcp) as client:
            for arguments in calls:
                result = await client.call_tool("history", arguments)
                assert not result.is_error, result
                found.append(result.structured_content)

    anyio.run(run)
    return found


def _plain(data: Any) -> Any:
    """The data as JSON parses it (tuples as lists, every key a string)."""
    return json.loads(json.dumps(data, default=str))


def test_walk_as_of_and_challenge_carry_one_form_on_every_surface(
    czar_free_engine: Any, neo4j_target: Target, server: Server
) -> None:
    engine = czar_free_engine
    b, mirror = f"one-form-{uuid.uuid4().hex}", f"one-form-{uuid.uuid4().hex}"
    assert _seed(engine, b) == _seed(engine, mirror) == 2
    # The MCP server has no challenge: the table says so, and the server lists none.
    acts = [op for op in OPERATIONS if op.name in ("challenge", "invalidate")]
    assert acts and all(isinstance(op.mcp, Absent) for op in acts)
    assert not {"challenge", "invalidate"} & set(TOOL_NAMES)

    # The same challenge in two identical boundaries, by the same operator: through the CLI in
    # one and through HTTP in the other, it answers the same data (but for the boundary id).
    reason = "the goal was misread"
    by_cli = _cli_json(
        neo4j_target, "invalidation", "challenge", "e-goal", "-b", b, "--reason", reason
    )
    body = {"mode": "challenge", "target": "e-goal", "reason": reason}
    by_http = _http(server, "POST", f"/boundaries/{mirror}/invalidations", "operator", json=body)
    assert json.loads(json.dumps(by_http).replace(mirror, b)) == by_cli
    assert by_cli["complete"] and by_cli["failed"] == ["e-goal"]
    assert by_cli["at_risk"] == ["e-bench"] and by_cli["decision"]["outcome"] == "commit"
    assert by_cli["decision"]["feedback"] and by_cli["parts"] == [by_cli["decision"]]
    challenged_seq = by_cli["decision"]["seq"]
    assert challenged_seq == 3

    # The walk of the first set (superseded, challenged, put at risk since) and of the second,
    # and the record as of every seq: one form on the three surfaces, the library's.
    handle = engine.boundary(b, create=False)
    walks = [f"/boundaries/{b}/history/sets/{s}" for s in ("s-first", "s-second")]
    seqs = (1, 2, challenged_seq)
    mcp = _mcp(
        engine, b, [{"set_id": "s-first"}, {"set_id": "s-second"}, *({"as_of": s} for s in seqs)]
    )
    for n, set_id in enumerate(("s-first", "s-second")):
        by_cli = _cli_json(neo4j_target, "history", "walk", set_id, "-b", b)
        by_http = _http(server, "GET", walks[n], "reader")
        assert by_cli == by_http == mcp[n] == _plain(handle.walk(set_id).as_dict())
    first = mcp[0]
    assert first["later_sets"] == sorted(["s-second", _set_at(challenged_seq, handle)])
    assert {r["entry"] for r in first["transitioned_later"]} >= {"e-goal", "e-bench"}
    for n, seq in enumerate(seqs, start=2):
        path = f"/boundaries/{b}/history/as-of/{seq}"
        whole = _cli_json(neo4j_target, "history", "as-of", str(seq), "-b", b, "--all")
        assert whole == _http(server, "GET", path, "reader") == mcp[n]
        assert whole == _plain(handle.as_of(seq).as_dict())
        # Without --all the CLI lists the window alone: the same form, its resident entries.
        window = _cli_json(neo4j_target, "history", "as-of", str(seq), "-b", b)
        assert window == {**whole, "entries": [e for e in whole["entries"] if e["resident"]]}
    at_challenge = {e["id"]: e["status"] for e in mcp[-1]["entries"]}
    assert at_challenge["e-goal"] == "challenged" and at_challenge["e-db1"] == "superseded"


def _set_at(seq: int, handle: Any) -> str:
    """The id of the set ratified at ``seq`` (from the history index)."""
    return next(line.set_id for line in handle.history_index(from_seq=seq, to_seq=seq))
