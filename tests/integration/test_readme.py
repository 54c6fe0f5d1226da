"""The examples of the README and of the docs site run as written, against the real database the
suite tests against.

In one order (``tests.docs_blocks.RUN_ORDER``: the README, then the guides as a reader meets
them, then every other page of docs/), each page in document order, sharing one boundary:
- every ``python`` block runs in a fresh interpreter (``python FILE``, from the repository root):
  it must exit 0 and print no traceback. The blocks connect with ``Engine.connect()``, which
  resolves ``NEO4J_URI`` first; the test sets ``NEO4J_URI``, ``NEO4J_USERNAME``,
  ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE`` to the server the suite resolved (any of the three
  sources), so the code itself is untouched;
- every command of a ``bash`` block that calls ``kg-context`` or ``.venv/bin/kg-context`` runs
  from the repository root, where ``kg-context`` is this interpreter's ``python -m
  kg_context.cli`` (what the installed script runs) and ``.venv/bin/kg-context`` is read as
  ``kg-context``: it must exit 0 and print no traceback, no internal error and no error line. A
  command that is one plain call (no pipe, redirection, variable, glob or other shell syntax)
  runs in this process: the arguments bash would pass (``shlex``, the comment dropped) go to the
  installed script's entry point, ``kg_context.cli.main``, with the same environment, and its
  exit code and output are checked the same way (so the model is loaded once, not once per
  command); any other command runs in ``bash``. Not run, and only these: the local server's
  ``neo4j start|stop|status`` (the suite is already running against a server; stopping it would
  end the run) and ``make ...`` (it installs and runs this very suite). Any other command in a
  bash block fails the test: run it or list it in ``tests.docs_blocks.NOT_RUN`` with the reason;
- every ``cypher`` block runs as a read with ``$boundary_id`` bound, and finds something.

A python block is left out only where ``tests.docs_blocks.FRAGMENTS`` lists it with the reason.

The one substitution: the documented boundary ``team-7`` becomes a fresh id per run (ids are
unique across the database, so the examples prefix theirs with the boundary id), which lets the
examples run again and again against one database, as the README says next to them.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import neo4j
import pytest

from tests.cli import run_cli, target_env
from tests.docs_blocks import (
    CLI,
    FRAGMENTS,
    REPO,
    RUN_ORDER,
    Block,
    blocks,
    commands,
    fragment_because,
    not_run_because,
)

DOCUMENTED_BOUNDARY = "team-7"
TIMEOUT_S = 300


def _example_blocks() -> list[Block]:
    """Every python, bash and cypher block of the README and docs/, in the order they run."""
    return [b for path in RUN_ORDER for b in blocks(path) if b.lang in {"python", "bash", "cypher"}]


def test_the_docs_have_examples_to_run_and_every_command_is_classified() -> None:
    found = _example_blocks()
    python = [b for b in found if b.lang == "python" and fragment_because(b) is None]
    bash = [c for b in found if b.lang == "bash" for c in commands(b)]
    assert len(python) >= 9 and any("boundary.commit(" in b.text for b in python)
    run = [c for c in bash if CLI.match(c) and not_run_because(c) is None]
    assert len(run) >= 15
    for command in bash:
        assert CLI.match(command) or not_run_because(command), (
            f"bash command {command!r} is neither run nor listed as not run"
        )
    assert all(DOCUMENTED_BOUNDARY in b.text for b in python)
    # The README itself shows a commit that runs, and every listed fragment is still shown.
    assert any(b.path == RUN_ORDER[0] and "boundary.commit(" in b.text for b in python)
    shown = [b for b in found if b.lang == "python" and fragment_because(b)]
    assert len(shown) == len(FRAGMENTS), "a fragment listed in FRAGMENTS is no longer shown"


@pytest.fixture
def readme_env(neo4j_target: Any, engine: Any, tmp_path: Path) -> dict[str, str]:
    """The environment the examples run in: the resolved server, this checkout, the CLI."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "kg-context"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kg_context.cli "$@"\n')
    script.chmod(0o755)
    env = target_env(neo4j_target)
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p),
    )
    env.setdefault("HF_HUB_OFFLINE", "1")  # the model ships as a package; nothing is downloaded
    env.pop("KG_CONTEXT_DEBUG", None)
    return env


def _check(done: subprocess.CompletedProcess[str], what: str) -> None:
    output = f"{what}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert done.returncode == 0, f"exit {done.returncode}: {output}"
    assert "Traceback" not in done.stdout + done.stderr, output
    assert "internal error" not in done.stderr, output
    assert "error:" not in done.stderr, output


def _run_python(block: Block, code: str, env: dict[str, str], tmp_path: Path) -> None:
    script = tmp_path / f"{block.path.stem}_{block.line}.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    _check(done, f"{block.where} (python)")


# Characters that make a command more than one plain call of the CLI (unquoted; the second set
# inside double quotes too): then bash runs it.
SHELL_SYNTAX = frozenset("|&;<>()$`*?[]{}~\\!")
EXPANDED_IN_DOUBLE_QUOTES = frozenset("$`\\!")


def _plain_call(command: str) -> list[str] | None:
    """The CLI's arguments, as bash would pass them, if ``command`` is one plain call of
    ``kg-context`` (words, quotes and a trailing comment only); else None."""
    quote, end = "", len(command)
    for i, char in enumerate(command):
        if quote == "'":
            quote = "" if char == "'" else quote
        elif quote == '"':
            if char in EXPANDED_IN_DOUBLE_QUOTES:
                return None
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or command[i - 1].isspace()):
            end = i  # a comment, to the end of the line
            break
        elif char in SHELL_SYNTAX:
            return None
    try:
        words = shlex.split(command[:end])
    except ValueError:
        return None
    if not words or words[0] != "kg-context":
        return None
    return words[1:]


def _run_command(block: Block, command: str, env: dict[str, str]) -> None:
    if command.startswith(".venv/bin/"):
        command = command.removeprefix(".venv/bin/")
    argv = _plain_call(command)
    if argv is not None:
        _check(run_cli(argv, env), f"{block.where}: {command} (in process)")
        return
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    _check(done, f"{block.where}: {command}")


def _run_cypher(block: Block, driver: neo4j.Driver, database: str, boundary_id: str) -> None:
    """A shown query runs, and finds something in the boundary the examples wrote."""
    records, _, _ = driver.execute_query(
        block.text,
        {"boundary_id": boundary_id},
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    )
    assert records, f"{block.where}: the example query finds nothing in the examples' boundary"


def test_the_readme_and_docs_examples_run_as_written(
    readme_env: dict[str, str],
    engine: Any,
    driver: neo4j.Driver,
    neo4j_target: Any,
    tmp_path: Path,
) -> None:
    boundary_id = f"readme-{uuid.uuid4().hex[:12]}"
    ran: dict[str, int] = {"python": 0, "bash": 0, "cypher": 0}
    for block in _example_blocks():
        text = block.text.replace(DOCUMENTED_BOUNDARY, boundary_id)
        if block.lang == "python" and fragment_because(block):
            continue
        if block.lang == "python":
            _run_python(block, text, readme_env, tmp_path)
            ran["python"] += 1
        elif block.lang == "bash":
            for command in commands(Block(block.path, block.line, block.lang, text)):
                if not_run_because(command) is None:
                    _run_command(block, command, readme_env)
                    ran["bash"] += 1
        else:
            _run_cypher(block, driver, neo4j_target.database, boundary_id)
            ran["cypher"] += 1
    assert ran["python"] >= 9 and ran["bash"] >= 15 and ran["cypher"] >= 3, ran

    # What the examples say happened, read back from the record (the analysts' audit).
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    status = {r["id"].removeprefix(f"{boundary_id}/"): r["status"] for r in rows}
    assert status["goal-1"] == "challenged"  # the invalidation example
    assert status["db-1"] == "at_risk" and status["db-2"] == "at_risk"  # its essential descendants
    assert "db-3" not in status  # the halted set was rejected: nothing of it entered the record
