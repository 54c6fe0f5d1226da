"""The CLI's surface, without a database: every command's --help carries an example, and the
exit codes docs/cli.md documents are the ones the CLI uses."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
import typer

from kg_context.cli.app import EXIT_MEANINGS, app
from kg_context.cli.common import ExitCode, exit_code_for
from kg_context.errors import (
    AuthenticationError,
    AuthorizationError,
    ConfigurationError,
    DatabaseUnavailableError,
    EmbeddingError,
    InputValidationError,
    LocalServerError,
    StateError,
)
from tests.docs_blocks import REPO, section

ROOT = typer.main.get_command(app)


def _subcommands(command: Any) -> dict[str, Any]:
    found: dict[str, Any] = getattr(command, "commands", {})
    return found


def _commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in _subcommands(group).items():
        path = (*prefix, name)
        found.extend(_commands(command, path) if _subcommands(command) else [path])
    return found


COMMANDS = _commands(ROOT)


def test_the_walk_finds_the_commands() -> None:
    names = {" ".join(c) for c in COMMANDS}
    assert {"attention score", "attention wave", "audit all", "audit why-resident", "serve", "why",
            "history walk", "halts resolve", "demo", "exit-codes", "adopt"} <= names  # fmt: skip


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p))
def test_every_command_shows_an_example_in_its_help(path: tuple[str, ...]) -> None:
    command: Any = ROOT
    for name in path:
        command = _subcommands(command)[name]
    text = command.help or ""
    examples = re.findall(r"^Example: (kg-context .+)$", text, flags=re.M)
    assert examples, f"kg-context {' '.join(path)} --help has no 'Example: kg-context ...' line"
    assert examples[0].startswith("kg-context " + " ".join(path)), examples[0]


def test_the_cli_pages_table_is_the_exit_codes() -> None:
    table = section(REPO / "docs" / "cli.md", "### Exit codes")
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", table, flags=re.M)
    assert {int(code) for code, _ in rows} == {int(c) for c in ExitCode}
    assert set(EXIT_MEANINGS) == set(ExitCode)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (InputValidationError("x"), ExitCode.INVALID_INPUT),
        (ConfigurationError("x"), ExitCode.INVALID_INPUT),
        (StateError("x"), ExitCode.STATE),
        (AuthorizationError("x"), ExitCode.NOT_AUTHORIZED),
        (DatabaseUnavailableError("x"), ExitCode.DATABASE),
        (AuthenticationError("x"), ExitCode.DATABASE),
        (LocalServerError("x"), ExitCode.ENVIRONMENT),
        (EmbeddingError("x"), ExitCode.ENVIRONMENT),
    ],
)
def test_each_error_kind_has_its_exit_code(error: Exception, code: ExitCode) -> None:
    assert exit_code_for(error) is code  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("KG_CONTEXT_LOCAL_PASSWORD", "", "password"),
        ("KG_CONTEXT_LOCAL_BOLT_PORT", "seven", "bolt_port"),
    ],
)
def test_an_unusable_setting_is_a_configuration_error_not_an_internal_one(
    variable: str, value: str, named: str
) -> None:
    """A setting the environment gets wrong (an empty password override, a port that is not a
    number) exits with the configuration code, names the setting, and never echoes the value."""
    import subprocess
    import sys

    env = {**os.environ, variable: value}
    done = subprocess.run(
        [sys.executable, "-c", "from kg_context.cli import main; main()", "neo4j", "status"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == int(ExitCode.INVALID_INPUT), output
    assert "unusable KG_CONTEXT_LOCAL_* settings" in output
    assert named in output
    assert "internal error" not in output
