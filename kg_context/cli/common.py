"""What every CLI command shares: the engine, handles on existing boundaries, output helpers, and
the exit codes scripts can rely on.

One way to connect: ``connect()`` is ``Engine.connect()`` (the resolved database: ``NEO4J_URI``
→ Docker → local, nothing started; settings read once, from the environment).

Output: ``--json`` prints one JSON document on stdout (nothing else goes there); without it,
tables and lines for people. Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import (
    AuthorizationError,
    CatalogError,
    ConfigurationError,
    DatabaseError,
    InputValidationError,
    KgContextError,
    StateError,
)

__all__ = [
    "BoundaryOption",
    "ExitCode",
    "JsonOption",
    "StepProgress",
    "connect",
    "emit",
    "err",
    "existing",
    "exit_code_for",
    "operator_id",
    "out",
    "print_json",
    "table",
]

# Piped output gets room for whole ids in tables (a terminal keeps its own width).
out = Console(soft_wrap=True, highlight=False, width=None if sys.stdout.isatty() else 240)
err = Console(stderr=True, soft_wrap=True, highlight=False)

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
BoundaryOption = Annotated[str, typer.Option("--boundary", "-b", help="The boundary id.")]


class ExitCode(IntEnum):
    """The exit codes of ``kg-context`` (docs/cli.md's table is this enum)."""

    OK = 0  # done; a decision committed; an invariant audit found nothing
    REFUSED = 1  # it ran, and the answer is no: the gate halted or rejected, an invariant failed
    USAGE = 2  # a command, option or argument that does not exist or does not parse
    NOT_RUNNING = 3  # kg-context neo4j status: the local server is not running
    INVALID_INPUT = 4  # input, a file or a setting that cannot be used; nothing was changed
    STATE = 5  # the record does not allow it: an unknown id, a halt no longer open
    DATABASE = 6  # Neo4j cannot be reached, refused the credentials, or failed a statement
    ENVIRONMENT = 7  # the local server, the embedding model or the machine failed
    NOT_AUTHORIZED = 8  # an operator's act by an id the boundary's constitution does not name
    INTERNAL = 70  # a bug: an unexpected error (KG_CONTEXT_DEBUG=1 shows the traceback)
    INTERRUPTED = 130  # Ctrl-C


def exit_code_for(error: KgContextError) -> ExitCode:
    """The exit code of a library error."""
    if isinstance(error, InputValidationError | ConfigurationError | CatalogError):
        return ExitCode.INVALID_INPUT
    if isinstance(error, StateError):
        return ExitCode.STATE
    if isinstance(error, AuthorizationError):
        return ExitCode.NOT_AUTHORIZED
    if isinstance(error, DatabaseError):
        return ExitCode.DATABASE
    return ExitCode.ENVIRONMENT


def connect(*, check_schema: bool = True) -> Engine:
    """The CLI's engine on the resolved database (starts nothing); the schema is checked on
    connect unless the command is ``schema apply`` or reads no kg-context data."""
    return Engine.connect(check_schema=check_schema)


def existing(engine: Engine, boundary_id: str) -> BoundaryHandle:
    """A handle on a boundary that must exist already (reading never creates one)."""
    return engine.boundary(boundary_id, create=False)


def operator_id(default: str = "operator") -> str:
    """Who runs the command: ``KG_CONTEXT_OPERATOR``, else ``default`` (``operator``, the
    operator id the default constitution names; the login name is never an authority)."""
    return os.environ.get("KG_CONTEXT_OPERATOR") or default


def print_json(console: Console, data: object) -> None:
    console.print(json.dumps(data, sort_keys=True, default=str), markup=False, highlight=False)


def emit(data: object, as_json: bool, human: Callable[[], None]) -> None:
    """``data`` as JSON on stdout with ``--json``; otherwise what ``human`` prints."""
    if as_json:
        print_json(out, data)
    else:
        human()


def table(
    rows: Sequence[Mapping[str, Any]], columns: Iterable[str] | None = None, title: str = ""
) -> Table:
    """A Rich table of records (columns: the given ones, or the first row's keys)."""
    names = list(columns) if columns is not None else list(rows[0]) if rows else []
    shown = Table(*names, title=title or None)
    for row in rows:
        shown.add_row(*(_cell(row.get(name)) for name in names))
    return shown


def _cell(value: Any, width: int = 160) -> str:
    if value is None:
        return ""
    text = json.dumps(value, default=str) if isinstance(value, list | dict) else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


class StepProgress:
    """A progress bar on stderr for work told step by step (shown only on a terminal, and gone
    when done): ``with StepProgress("schema", total) as step: ... step(name)``."""

    def __init__(self, description: str, total: int | None) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        )
        self._description = description
        self._task = self._progress.add_task(description, total=total)
        self._started = False

    def __enter__(self) -> StepProgress:
        self._progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.__exit__(None, None, None)

    def __call__(self, name: str) -> None:
        """A step begins: the previous one is done."""
        if self._started:
            self._progress.advance(self._task)
        self._started = True
        self._progress.update(self._task, description=f"{self._description}: {name}")

    def counts(self, done: int, total: int) -> None:
        """Work counted in units: ``done`` of ``total``."""
        self._progress.update(
            self._task, description=self._description, completed=done, total=total
        )
