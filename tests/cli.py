"""The operator's CLI as the tests run it: through the installed script's entry point,
``kg_context.cli.main``, in the test's own process, with the environment a user's shell would
give it and the working directory at the repository root; its exit code and what it printed on
stdout and stderr come back as a ``subprocess.CompletedProcess``, as if it had run as a process.

A process of its own costs about a second of CPU to start (the imports) before the command does
anything; the suite runs the CLI some hundred times. The entry point itself, run as a process
(``python -m kg_context.cli``, the exit codes the shell sees), is tested in
``tests/unit/test_cli_surface.py`` and ``tests/integration/test_database.py``.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from kg_context.db.connection import Target

REPO = Path(__file__).resolve().parents[1]


def target_env(target: Target, **more: str) -> dict[str, str]:
    """This process's environment, pointed at ``target`` (what ``Engine.connect()`` resolves
    first), with ``more`` on top."""
    return dict(
        os.environ,
        NEO4J_URI=target.uri,
        NEO4J_USERNAME=target.username,
        NEO4J_PASSWORD=target.password,
        NEO4J_DATABASE=target.database,
        **more,
    )


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    """``os.environ`` is ``env`` meanwhile, and the working directory the repository root."""
    saved, cwd = dict(os.environ), Path.cwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(REPO)
    try:
        yield
    finally:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(saved)


def run_cli(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``kg-context ARGV`` through the installed script's entry point, in this process."""
    from kg_context.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    saved_argv = sys.argv
    sys.argv = ["kg-context", *argv]
    try:
        with (
            _environment(env),
            contextlib.redirect_stdout(stdout),
            contextlib.redirect_stderr(stderr),
        ):
            main()
    except SystemExit as done:
        code = done.code
    finally:
        sys.argv = saved_argv
    returncode = code if isinstance(code, int) else (0 if code is None else 1)
    return subprocess.CompletedProcess(argv, returncode, stdout.getvalue(), stderr.getvalue())


def cli(target: Target, *args: str, operator: str = "operator") -> subprocess.CompletedProcess[str]:
    """``kg-context ARGS`` against ``target`` as ``operator`` (``KG_CONTEXT_OPERATOR``), in this
    process."""
    return run_cli(list(args), target_env(target, KG_CONTEXT_OPERATOR=operator))
