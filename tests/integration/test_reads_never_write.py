"""Reads never write: every read surface (each GET route of the HTTP API with a reader's token,
the read tools of the MCP server, the read commands of the CLI, and the read methods of the
engine and its boundary handle) leaves the boundary exactly as it found it: the same nodes, the
same relationships, the same labels and properties (``cypher/boundary/fingerprint.cypher``,
hashed here), checked around each call."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import pytest
from typer.testing import CliRunner

from kg_context.api import TokenTable
from kg_context.api.mcp_server import McpTools
from kg_context.attention import WorkspaceAttention
from kg_context.cli.app import app as cli_app
from kg_context.db.connection import Target
from kg_context.record import history
from kg_context.record.audits import audit_library
from tests.factories import entry, proposal
from tests.integration.api_server import Server, running, token_specs


def fingerprint(engine: Any, boundary_id: str) -> tuple[int, int, str, dict[str, Any]]:
    """The boundary's node count, relationship count, a digest of every label, property and
    relationship end, and each node's labels and properties by id (to say what changed)."""
    rows = engine.executor.read("boundary/fingerprint", boundary_id=boundary_id)
    rels = {json.dumps(r, sort_keys=True, default=str) for row in rows for r in row["rels"]}
    nodes = {
        row["node"]: json.loads(json.dumps([sorted(row["labels"]), row["props"]], default=str))
        for row in rows
    }
    text = json.dumps(sorted(nodes.items()), sort_keys=True) + "\n".join(sorted(rels))
    return len(nodes), len(rels), hashlib.sha256(text.encode("utf-8")).hexdigest(), nodes


def _changes(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Which nodes appeared, and which labels and property keys changed on the others."""
    made = sorted({",".join(after[n][0]) for n in after.keys() - before.keys()})
    changed: set[str] = set()
    for node in after.keys() & before.keys():
        (old_labels, old_props), (new_labels, new_props) = before[node], after[node]
        changed |= {f":{label}" for label in set(old_labels) ^ set(new_labels)}
        keys = old_props.keys() | new_props.keys()
        changed |= {k for k in keys if old_props.get(k) != new_props.get(k)}
    return f"new nodes {made}, changed {sorted(changed)}"


class Watch:
    """Calls read surfaces one by one, each right after a writer committed a new entry (what a
    reader finds right after a writer), and names those after which the boundary differs."""

    def __init__(self, engine: Any, boundary_id: str) -> None:
        self.engine, self.boundary_id = engine, boundary_id
        self.wrote: list[str] = []
        self._serial = 0

    def read(self, name: str, call: Callable[[], object]) -> object:
        self._serial += 1
        body = f"Lookup note {self._serial}: Postgres answers in {self._serial} ms"
        fresh = entry("fact", f"note-{self._serial}", body, attributes={"source": "a"})
        boundary = self.engine.boundary(self.boundary_id, create=False)
        assert (
            boundary.commit(proposal(self.boundary_id, fresh, targets=["notes"])).outcome
            == "commit"
        )
        before = fingerprint(self.engine, self.boundary_id)
        result = call()
        after = fingerprint(self.engine, self.boundary_id)
        if after[:3] != before[:3]:
            counts = f"(nodes, relationships) {before[:2]} -> {after[:2]}"
            self.wrote.append(f"{name}: {counts}; {_changes(before[3], after[3])}")
        return result


@pytest.fixture(scope="module")
def seeded(czar_free_engine: Any) -> tuple[str, str, str]:
    """A boundary with a superseded decision, an open halt and an attention wave, that runs no
    czar by itself (nothing writes beside the test): its id, a set id, a halt id."""
    engine = czar_free_engine
    b = f"reads-{uuid.uuid4().hex[:12]}"
    boundary = engine.boundary(b)
    goal = entry("goal", "lookups", "Lookups in 10 ms", id=f"{b}/goal")
    first = entry("decision", "datastore", "Use Postgres", id=f"{b}/db-1")
    first_set = proposal(b, goal, first, set_id=f"{b}/s-1", pid=f"{b}/p-1")
    assert boundary.commit(first_set).outcome == "commit"
    second = entry(
        "decision",
        "datastore",
        "Use Neo4j",
        id=f"{b}/db-2",
        supersedes=[{"entry_id": f"{b}/db-1", "reason": "graph walks"}],
    )
    assert boundary.commit(proposal(b, second, targets=["datastore"])).outcome == "commit"
    halted = boundary.commit(
        proposal(
            b,
            entry(
                "fact", "bench", "A public benchmark", verse="global", attributes={"source": "a"}
            ),
            targets=["b"],
        )
    )
    assert halted.outcome == "halt" and halted.halt_id
    WorkspaceAttention(
        engine, boundary_id=b, sink=boundary, writer_id="writer-1"
    ).select_and_broadcast(
        {f"{b}-planner": "Index User.email.", f"{b}-critic": "Cache the lookups."},
        "How do we speed up user lookups?",
        f"{b}-task",
    )
    return b, f"{b}/s-1", halted.halt_id


@pytest.fixture(scope="module")
def server(czar_free_engine: Any) -> Iterator[Server]:
    with running(czar_free_engine, f"reads-fenced-{uuid.uuid4().hex[:8]}") as started:
        yield started


def _ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response


def test_no_get_route_changes_the_boundary(
    czar_free_engine: Any, server: Server, seeded: tuple[str, str, str]
) -> None:
    engine = czar_free_engine
    b, set_id, halt_id = seeded
    watch = Watch(engine, b)
    under = f"/boundaries/{b}"
    calls: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
        ("/healthz", "-"): ("/healthz", {}),
        ("/openapi.json", "-"): ("/openapi.json", {}),
        ("/boundaries/{boundary_id}", "reader"): (under, {}),
        ("/boundaries/{boundary_id}/window", "reader"): (f"{under}/window", {}),
        ("/boundaries/{boundary_id}/context", "reader"): (
            f"{under}/context",
            {"budget": 4096, "q": "Postgres lookups", "format": "json"},
        ),
        ("/boundaries/{boundary_id}/stats", "reader"): (f"{under}/stats", {}),
        ("/boundaries/{boundary_id}/brief", "operator"): (f"{under}/brief", {}),
        ("/boundaries/{boundary_id}/entries/{entry_id}/why", "reader"): (
            f"{under}/entries/{b}/db-2/why",
            {},
        ),
        ("/boundaries/{boundary_id}/recall", "reader"): (f"{under}/recall", {"q": "Postgres"}),
        ("/boundaries/{boundary_id}/proposals/{proposal_id}/decision", "reader"): (
            f"{under}/proposals/{b}/p-1/decision",
            {},
        ),
        ("/boundaries/{boundary_id}/history", "reader"): (f"{under}/history", {}),
        ("/boundaries/{boundary_id}/history/sets/{set_id}", "reader"): (
            f"{under}/history/sets/{set_id}",
            {},
        ),
        ("/boundaries/{boundary_id}/history/as-of/{seq}", "reader"): (
            f"{under}/history/as-of/1",
            {},
        ),
        ("/boundaries/{boundary_id}/history/search", "reader"): (
            f"{under}/history/search",
            {"q": "lookups"},
        ),
        ("/boundaries/{boundary_id}/halts", "reader"): (f"{under}/halts", {"all": "true"}),
        ("/boundaries/{boundary_id}/halts/{halt_id}", "reader"): (f"{under}/halts/{halt_id}", {}),
        ("/boundaries/{boundary_id}/revocations", "reader"): (f"{under}/revocations", {}),
        ("/specialists/{specialist_id}/attention", "reader"): (
            f"/specialists/{b}-planner/attention",
            {"boundary_id": b},
        ),
        ("/metrics", "reader"): ("/metrics", {}),
    }
    for (template, role), (path, params) in calls.items():
        token = None if role == "-" else role
        watch.read(
            f"GET {template}",
            lambda p=path, q=params, t=token: _ok(server.call("GET", p, t, params=q)),
        )
    spec = server.call("GET", "/openapi.json", None).json()
    get_routes = {path for path, ops in spec["paths"].items() if "get" in ops} | {"/openapi.json"}
    assert get_routes == {template for template, _ in calls}, "a GET route this test misses"
    assert not watch.wrote, "reads that wrote:\n" + "\n".join(watch.wrote)


def test_no_mcp_read_tool_changes_the_boundary(
    czar_free_engine: Any, seeded: tuple[str, str, str]
) -> None:
    engine = czar_free_engine
    b, set_id, _ = seeded
    tokens, specs = token_specs(b)
    table = TokenTable(specs)
    reader = table.authenticate(tokens["reader"])
    assert reader is not None
    tools = McpTools(engine, b, table, bound=reader)
    watch = Watch(engine, b)
    reads: dict[str, Callable[[], Any]] = {
        "context": lambda: tools.context(4096, "Postgres lookups"),
        "recall": lambda: tools.recall("Postgres"),
        "why": lambda: tools.why(f"{b}/db-2"),
        "history": lambda: tools.history(),
        "history set_id": lambda: tools.history(set_id=set_id),
        "history as_of": lambda: tools.history(as_of=1),
        "halts": lambda: tools.halts(include_resolved=True),
    }
    for name, call in reads.items():
        result = watch.read(f"mcp {name}", lambda c=call: anyio.run(c))
        assert not result.is_error, (name, result)  # type: ignore[attr-defined]
    assert not watch.wrote, "reads that wrote:\n" + "\n".join(watch.wrote)


def test_no_read_command_of_the_cli_changes_the_boundary(
    czar_free_engine: Any, neo4j_target: Target, seeded: tuple[str, str, str]
) -> None:
    engine = czar_free_engine
    b, set_id, halt_id = seeded
    env = {
        "NEO4J_URI": neo4j_target.uri,
        "NEO4J_USERNAME": neo4j_target.username,
        "NEO4J_PASSWORD": neo4j_target.password,
        "NEO4J_DATABASE": neo4j_target.database,
    }
    runner = CliRunner()
    commands = [
        ["window", b],
        ["context", b, "--budget", "4096", "-q", "Postgres lookups"],
        ["why", f"{b}/db-2", "-b", b],
        ["stats", b],
        ["brief", "-b", b],
        ["recall", b, "Postgres"],
        ["history", "index", "-b", b],
        ["history", "walk", set_id, "-b", b],
        ["history", "as-of", "1", "-b", b],
        ["history", "search", "lookups", "-b", b],
        ["history", "search", "lookups", "-b", b, "--thoughts"],
        ["halts", "list", "--boundary", b, "--all"],
        ["halts", "show", halt_id],
        ["halts", "at-risk", "-b", b, "--all"],
        ["audit", "all", "-b", b],
        ["audit", "false-retirements", "-b", b],
        ["audit", "rates", "-b", b],
        ["audit", "verify", b],
        ["constitution", "show", "--boundary", b],
        ["constitution", "suggest", "-b", b],
        ["attention", "score", f"{b}-planner", "-b", b],
    ]
    watch = Watch(engine, b)
    for args in commands:
        result = watch.read(
            "kg-context " + " ".join(args[:2]),
            lambda a=args: runner.invoke(cli_app, [*a, "--json"], env=env),
        )
        assert result.exit_code == 0, (args, result.output)  # type: ignore[attr-defined]
    assert not watch.wrote, "reads that wrote:\n" + "\n".join(watch.wrote)


def test_no_read_method_changes_the_boundary(
    czar_free_engine: Any, seeded: tuple[str, str, str]
) -> None:
    engine = czar_free_engine
    b, set_id, halt_id = seeded
    boundary = engine.boundary(b, create=False)
    watch = Watch(engine, b)
    reads: dict[str, Callable[[], object]] = {
        "engine.boundary(create=False)": lambda: engine.boundary(b, create=False),
        "state": boundary.state,
        "constitution": boundary.constitution,
        "window": boundary.window,
        "context": lambda: boundary.context(4096, query="Postgres lookups"),
        "stats": boundary.stats,
        "why": lambda: boundary.why(f"{b}/db-2"),
        "recall": lambda: boundary.recall("Postgres"),
        "search": lambda: boundary.search("lookups"),
        "brief": boundary.brief,
        "audit": boundary.audit,
        "history_index": boundary.history_index,
        "walk": lambda: boundary.walk(set_id),
        "as_of": lambda: boundary.as_of(1),
        "history.thoughts": lambda: history.search_thoughts(boundary, "lookups"),
        "halts": lambda: boundary.halts(status=None),
        "engine.halts.list": lambda: engine.halts.list(b, None, 100),
        "engine.halts.show": lambda: engine.halts.show(halt_id),
        "engine.halts.at_risk": lambda: engine.halts.at_risk(b),
        "revocations": boundary.revocations,
        "verify_ledger": boundary.verify_ledger,
        "engine.invariants": lambda: engine.invariants(b),
        "engine.overview": engine.overview,
        "attention_score": lambda: WorkspaceAttention(
            engine, boundary_id=b, sink=boundary
        ).attention_score(f"{b}-planner"),
    }
    given = {"boundary_id": b, "task_id": f"{b}-task", "set_id": set_id, "entry_id": f"{b}/db-2"}
    audits = {}
    for name, audit in sorted(audit_library().items()):
        required = {p.name for p in audit.parameters if not p.optional}
        if "boundary_id" in audit.parameter_names and required <= given.keys():
            audits[name] = {k: v for k, v in given.items() if k in audit.parameter_names}
    assert len(audits) > 20
    reads["run_audit (every audit of a boundary)"] = lambda: [
        engine.run_audit(name, params=params) for name, params in audits.items()
    ]
    for name, call in reads.items():
        watch.read(name, call)
    assert not watch.wrote, "reads that wrote:\n" + "\n".join(watch.wrote)
