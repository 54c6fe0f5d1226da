"""The operator's CLI, run as a user runs it (its arguments, its environment, its exit codes and
what it prints), against the real database, through the installed script's entry point in this
process (``tests/cli.py``); the demo is run in test_audits.py, whose invariants it must leave
clean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kg_context.db.connection import Target
from kg_context.gate.pure.constitution import load_constitution
from tests.cli import cli
from tests.factories import entry, proposal


def test_operator_resolves_a_halt_from_the_cli(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    listed = cli(neo4j_target, "halts", "list", "--boundary", boundary_id)
    assert listed.returncode == 0, listed.stderr
    assert "VERSE_ADOPTION" in listed.stdout
    shown = cli(neo4j_target, "halts", "show", halted.halt_id)
    assert shown.returncode == 0 and "suggested_amendment" in shown.stdout
    neither = cli(neo4j_target, "halts", "resolve", halted.halt_id, "--reason", "x")
    assert neither.returncode == 4 and "exactly one of" in neither.stderr  # invalid input
    resolve = ("halts", "resolve", halted.halt_id, "--approve", "--reason", "ok")
    unnamed = cli(neo4j_target, *resolve, operator="ops-cli")
    assert unnamed.returncode == 8 and "'ops-cli' is not an operator" in unnamed.stderr
    assert "Traceback" not in unnamed.stderr and len(unnamed.stderr.strip().splitlines()) == 1
    done = cli(neo4j_target, *resolve)
    assert done.returncode == 0, done.stderr
    assert "commit" in done.stdout
    halt = engine.halts.show(halted.halt_id).halt
    assert (halt.status, halt.resolved_by) == ("resolved", "operator")


def test_constitution_cli_validates_and_proposes(
    engine: Any, neo4j_target: Target, boundary_id: str, tmp_path: Path
) -> None:
    engine.boundary(boundary_id)
    shown = cli(neo4j_target, "constitution", "show")
    assert shown.returncode == 0 and "[roots]" in shown.stdout
    new = tmp_path / "c.toml"
    current = load_constitution().version
    new.write_text(
        shown.stdout.replace(f'version = "{current}"', f'version = "cli-{boundary_id[-10:]}"')
    )
    assert cli(neo4j_target, "constitution", "validate", str(new)).returncode == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("version = 1\n")
    invalid = cli(neo4j_target, "constitution", "validate", str(bad))
    assert invalid.returncode == 4 and "not a valid constitution" in invalid.stderr
    proposed = cli(
        neo4j_target,
        "constitution",
        "propose",
        str(new),
        "--boundary",
        boundary_id,
        "--reason",
        "tighten",
    )
    assert proposed.returncode == 0, proposed.stderr
    assert engine.boundary(boundary_id).state().constitution_version == f"cli-{boundary_id[-10:]}"


def test_schema_json_exports_the_contracts(neo4j_target: Target, tmp_path: Path) -> None:
    done = cli(neo4j_target, "schema", "json", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    schema = json.loads((tmp_path / "proposal.schema.json").read_text())
    assert {"id", "boundary_id", "writer_id", "writer_kind", "entries"} <= set(schema["properties"])
    # A class is a built-in one (listed) or one the constitution declares (its name's shape).
    entry_class = schema["$defs"]["EntryProposal"]["properties"]["class"]
    assert entry_class["pattern"] and "interface" in entry_class["examples"]


def test_commands_take_ids_under_their_boundary_and_speak_json(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    first = boundary.commit(
        proposal(boundary_id, entry(cls="goal", id=f"{boundary_id}-g", key="g"), targets=["g"])
    )
    why = cli(neo4j_target, "why", f"{boundary_id}-g", "-b", boundary_id, "--json")
    assert why.returncode == 0, why.stderr
    assert json.loads(why.stdout)["held"] is True
    elsewhere = engine.boundary(f"{boundary_id}-other")
    assert elsewhere.id
    missing = cli(neo4j_target, "why", f"{boundary_id}-g", "-b", f"{boundary_id}-other")
    assert missing.returncode == 5 and "no entry" in missing.stderr  # state: not in that boundary
    walk = cli(neo4j_target, "history", "walk", first.set_id, "-b", boundary_id, "--json")
    assert walk.returncode == 0 and json.loads(walk.stdout)["seq"] == 1
    other_walk = cli(neo4j_target, "history", "walk", first.set_id, "-b", f"{boundary_id}-other")
    assert other_walk.returncode == 5
    for args in (
        ("window", boundary_id),
        ("stats", boundary_id),
        ("history", "index", "-b", boundary_id),
        ("history", "as-of", "1", "-b", boundary_id),
        ("halts", "list", "--boundary", boundary_id),
        ("constitution", "show", "--boundary", boundary_id),
        ("audit", "ledger", "-b", boundary_id),
        ("exit-codes",),
    ):
        done = cli(neo4j_target, *args, "--json")
        assert done.returncode == 0, (args, done.stderr)
        json.loads(done.stdout)  # one JSON document, nothing else on stdout
    context = cli(neo4j_target, "context", boundary_id, "--budget", "4096", "--json")
    assert context.returncode == 0, context.stderr
    shown = json.loads(context.stdout)
    assert shown["tokens"] <= 4096 and f"] {boundary_id}-g " in shown["text"]
    assert shown["manifest"]["sections"][0]["ids"] == [f"{boundary_id}-g"]
    text = cli(neo4j_target, "context", boundary_id, "--budget", "4096", "--query", "goal")
    assert text.returncode == 0 and text.stdout.startswith(f"# Context of {boundary_id} at seq 1")
    refused = cli(neo4j_target, "context", boundary_id, "--budget", "-1")
    assert refused.returncode == 2  # a usage error: the budget is at least 0
    unknown = cli(neo4j_target, "window", f"{boundary_id}-nowhere")
    assert unknown.returncode == 5 and unknown.stderr.startswith("error:")
    usage = cli(neo4j_target, "window")
    assert usage.returncode == 2


def test_attention_score_and_wave(engine: Any, neo4j_target: Target, boundary_id: str) -> None:
    from kg_context import WorkspaceAttention

    engine.boundary(boundary_id)
    attention = WorkspaceAttention(engine, boundary_id=boundary_id)
    planner, critic = f"{boundary_id}-planner", f"{boundary_id}-critic"
    result = attention.select_and_broadcast(
        {planner: {"text": "Index User.email.", "confidence": 0.9}, critic: "Cache it."},
        "How do we speed up lookups?",
        task_id=f"{boundary_id}-task",
    )
    score = cli(neo4j_target, "attention", "score", planner, "-b", boundary_id, "--json")
    assert score.returncode == 0, score.stderr
    expected = attention.get_attention_score(planner)
    assert json.loads(score.stdout)["attention_score"] == expected
    assert json.loads(score.stdout)["scope"] == "boundary"
    nobody = cli(neo4j_target, "attention", "score", f"{boundary_id}-nobody", "-b", boundary_id)
    assert nobody.returncode == 5 and "no selected proposal" in nobody.stdout
    across = cli(neo4j_target, "attention", "score", planner, "--global", "--json")
    assert across.returncode == 0, across.stderr
    assert json.loads(across.stdout)["scope"] == "global"
    neither = cli(neo4j_target, "attention", "score", planner)
    assert neither.returncode == 4 and "--global" in neither.stderr
    wave = cli(neo4j_target, "attention", "wave", result.wave_id, "--json")
    assert wave.returncode == 0, wave.stderr
    rows = json.loads(wave.stdout)
    assert [r["rank"] for r in rows] == [1, 2]
    assert {r["specialist"] for r in rows} == {planner, critic}
    missing = cli(neo4j_target, "attention", "wave", "w-nothing")
    assert missing.returncode == 5
