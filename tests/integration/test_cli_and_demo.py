"""The operator's CLI and the demo, run as a user runs them, against the real database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from kg_context.cli.demo import run_demo
from kg_context.db.connection import Target
from kg_context.gate.constitution import load_constitution
from tests.factories import entry, proposal


def _cli(
    target: Target, *args: str, operator: str = "operator"
) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        NEO4J_URI=target.uri,
        NEO4J_USERNAME=target.username,
        NEO4J_PASSWORD=target.password,
        NEO4J_DATABASE=target.database,
        KG_CONTEXT_OPERATOR=operator,
    )
    return subprocess.run(
        [sys.executable, "-m", "kg_context.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_demo_writes_and_reads_back_a_governed_session(engine: Any) -> None:
    console = Console(record=True, width=200)
    counts = run_demo(engine, console)
    text = console.export_text()
    assert (counts["seq"], counts["entries"], counts["halts"]) == (3, 5, 1)
    assert "superseded" in text and "VERSE_ADOPTION" in text and "NO_PLACEMENT" in text


def test_operator_resolves_a_halt_from_the_cli(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    team = engine.boundary(boundary_id)
    halted = team.commit(proposal(boundary_id, entry(verse="global", key="g")))
    listed = _cli(neo4j_target, "halts", "list", "--boundary", boundary_id)
    assert listed.returncode == 0, listed.stderr
    assert "VERSE_ADOPTION" in listed.stdout
    shown = _cli(neo4j_target, "halts", "show", halted.halt_id)
    assert shown.returncode == 0 and "suggested_amendment" in shown.stdout
    neither = _cli(neo4j_target, "halts", "resolve", halted.halt_id, "--reason", "x")
    assert neither.returncode == 1 and "exactly one of" in neither.stderr
    resolve = ("halts", "resolve", halted.halt_id, "--approve", "--reason", "ok")
    unnamed = _cli(neo4j_target, *resolve, operator="ops-cli")
    assert unnamed.returncode == 1 and "'ops-cli' is not an operator" in unnamed.stderr
    assert "Traceback" not in unnamed.stderr and len(unnamed.stderr.strip().splitlines()) == 1
    done = _cli(neo4j_target, *resolve)
    assert done.returncode == 0, done.stderr
    assert "commit" in done.stdout
    halt = engine.halts.show(halted.halt_id).halt
    assert (halt["status"], halt["resolved_by"]) == ("resolved", "operator")


def test_constitution_cli_validates_and_proposes(
    engine: Any, neo4j_target: Target, boundary_id: str, tmp_path: Path
) -> None:
    engine.boundary(boundary_id)
    shown = _cli(neo4j_target, "constitution", "show")
    assert shown.returncode == 0 and "[roots]" in shown.stdout
    new = tmp_path / "c.toml"
    current = load_constitution().version
    new.write_text(
        shown.stdout.replace(f'version = "{current}"', f'version = "cli-{boundary_id[-10:]}"')
    )
    assert _cli(neo4j_target, "constitution", "validate", str(new)).returncode == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("version = 1\n")
    invalid = _cli(neo4j_target, "constitution", "validate", str(bad))
    assert invalid.returncode == 1 and "not a valid constitution" in invalid.stderr
    proposed = _cli(
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
    assert (
        engine.boundary(boundary_id).state()["constitution_version"] == f"cli-{boundary_id[-10:]}"
    )


def test_schema_json_exports_the_contracts(neo4j_target: Target, tmp_path: Path) -> None:
    done = _cli(neo4j_target, "schema", "json", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    schema = json.loads((tmp_path / "proposal.schema.json").read_text())
    assert {"id", "boundary_id", "writer_id", "writer_kind", "entries"} <= set(schema["properties"])
    assert "EntryClass" in schema["$defs"]
