"""The ``kg-context`` command line.

Errors print one line (what failed, what to do), never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from kg_context.cli import history as cli_history
from kg_context.cli.common import connect, operator_id
from kg_context.cli.residency import register as register_residency
from kg_context.db import local_server as neo4j_local
from kg_context.db.connection import Source, resolve_source, target_for
from kg_context.engine import Engine
from kg_context.errors import (
    ConfigurationError,
    InputValidationError,
    KgContextError,
    LocalServerError,
    StateError,
)
from kg_context.gate.decision import Decision
from kg_context.settings import LocalServerSettings, Neo4jSettings
from kg_context.vocabulary import HaltStatus

__all__ = ["app", "main"]

app = typer.Typer(
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, help=__doc__
)
neo4j_app = typer.Typer(no_args_is_help=True, help="The local Neo4j server (no Docker needed).")
db_app = typer.Typer(no_args_is_help=True, help="The resolved database: NEO4J_URI, Docker, local.")
schema_app = typer.Typer(no_args_is_help=True, help="Constraints, indexes and contracts.")
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(db_app, name="db")
app.add_typer(schema_app, name="schema")
constitution_app = typer.Typer(no_args_is_help=True, help="The operator's constitution.")
halts_app = typer.Typer(no_args_is_help=True, help="Halts: list, show, resolve.")
app.add_typer(constitution_app, name="constitution")
app.add_typer(halts_app, name="halts")
register_residency(app)  # czar run, window, why, stats, recall
app.add_typer(cli_history.history_app, name="history")
app.add_typer(cli_history.audit_app, name="audit")
app.add_typer(cli_history.invalidation_app, name="invalidation")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True, highlight=False)

COMPOSE_FILE = "docker-compose.yml"


def _compose_up() -> None:
    compose = Path.cwd() / COMPOSE_FILE
    if not compose.exists():
        raise LocalServerError(f"no {COMPOSE_FILE} in {Path.cwd()} for the Docker engine")
    done = subprocess.run(
        ["docker", "compose", "-f", str(compose), "up", "-d", "--wait"], check=False
    )
    if done.returncode != 0:
        raise LocalServerError("docker compose up -d --wait failed (see its output above)")


def _up(source: Source | None = None) -> Engine:
    """Bring the resolved database up (start what is ours to start) and connect to it."""
    settings, local = Neo4jSettings(), LocalServerSettings()
    source = source or resolve_source(settings)
    err.print(f"kg-context: database source: {source}", markup=False)
    if source == "docker":
        _compose_up()
    elif source == "local":
        neo4j_local.start(local)
    engine = Engine.connect(target_for(source, settings, local))
    err.print(
        f"kg-context: connected to {engine.target.describe()}: {engine.server_version()}",
        markup=False,
    )
    return engine


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Provision (first time) and start the local Neo4j; a second start does nothing."""
    state = neo4j_local.start()
    out.print(f"Neo4j {state.detail}: Bolt {state.bolt_uri}  Browser {state.browser_url}")


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the local Neo4j; no java process is left behind."""
    state = neo4j_local.stop()
    out.print(f"Neo4j {state.detail}")


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Whether the local Neo4j runs, and where."""
    state = neo4j_local.status()
    out.print(f"Neo4j {state.detail}: Bolt {state.bolt_uri}  Browser {state.browser_url}")
    out.print(f"home {state.home_dir}")
    if not state.running:
        raise typer.Exit(3)


@db_app.command("up")
def db_up() -> None:
    """Resolve the database (NEO4J_URI → Docker → local), start it if it is ours, connect."""
    _up().close()


@db_app.command("info")
def db_info() -> None:
    """Say which database the resolution picks, and its version (starts nothing)."""
    with connect(check_schema=False) as engine:
        out.print(f"{engine.target.describe()}: {engine.server_version()}")


@schema_app.command("apply")
def schema_apply() -> None:
    """Create every constraint and index (idempotent, safe to run concurrently)."""
    from kg_context.db.schema import apply_schema

    with connect(check_schema=False) as engine:
        names = apply_schema(
            engine.executor, await_timeout_s=engine.settings.schema.await_timeout_s
        )
        out.print(f"schema applied to {engine.target.describe()}: {len(names)} rules online")


@schema_app.command("json")
def schema_json(
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Write one .schema.json per contract here.")
    ] = None,
) -> None:
    """Export the proposal and constitution contracts as JSON Schema."""
    from kg_context.gate.constitution import Constitution
    from kg_context.gate.contracts import Proposal

    schemas = {
        "proposal": Proposal.model_json_schema(by_alias=True),
        "constitution": Constitution.model_json_schema(),
    }
    if out_dir is None:
        out.print_json(json.dumps(schemas))
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas.items():
        (out_dir / f"{name}.schema.json").write_text(json.dumps(schema, indent=2) + "\n")
    out.print(f"wrote {len(schemas)} schemas to {out_dir}")


@constitution_app.command("show")
def constitution_show(
    boundary: Annotated[
        str | None, typer.Option(help="Show this boundary's constitution (default: shipped).")
    ] = None,
) -> None:
    """Print a constitution's TOML: the shipped default, or a boundary's current one."""
    from kg_context.gate.constitution import default_constitution_text

    if boundary is None:
        out.print(default_constitution_text(), markup=False, highlight=False)
        return
    with connect() as engine:
        state = engine.executor.read("boundary/get", boundary_id=boundary)
        if not state:
            raise StateError(f"no boundary {boundary}")
        current = engine.constitutions.get(state[0]["constitution_version"])
        out.print(current.text, markup=False, highlight=False)


@constitution_app.command("validate")
def constitution_validate(path: Path) -> None:
    """Validate a constitution file (no database needed)."""
    from kg_context.gate.constitution import load_constitution

    parsed = load_constitution(path)
    out.print(f"{path}: valid constitution version {parsed.version} (sha256 {parsed.sha256[:12]})")


@constitution_app.command("propose")
def constitution_propose(
    path: Path,
    boundary: Annotated[str, typer.Option(help="The boundary whose constitution changes.")],
    reason: Annotated[str, typer.Option(help="Why the constitution changes.")],
    operator: Annotated[str | None, typer.Option(help="Operator id (default $USER).")] = None,
) -> None:
    """Propose a new constitution version as a governed set by an operator writer."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(f"cannot read {path}: {error.strerror}") from None
    with connect() as engine:
        decision = engine.boundary(boundary).propose_constitution(
            text, writer_id=operator or operator_id(), reason=reason
        )
        _print_decision(decision)
        if decision.outcome != "commit":
            raise typer.Exit(1)


def _print_decision(decision: Decision) -> None:
    line = f"{decision.outcome}: set {decision.set_id} receipt {decision.receipt_id}"
    if decision.seq is not None:
        line += f" seq {decision.seq}"
    if decision.reason_code:
        line += f" [{decision.reason_code}] {decision.detail}"
    out.print(line, markup=False, highlight=False)


@halts_app.command("list")
def halts_list(
    boundary: Annotated[str | None, typer.Option(help="Only this boundary.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Resolved halts too.")] = False,
    limit: int = 100,
) -> None:
    """Open halts (or all), newest first."""
    from rich.table import Table

    with connect() as engine:
        rows = engine.halts.list(boundary, None if all_ else HaltStatus.OPEN, limit)
    table = Table("halt", "reason", "status", "opened", "detail")
    for row in rows:
        table.add_row(row["id"], row["reason_code"], row["status"], row["opened_at"], row["detail"])
    out.print(table)


@halts_app.command("show")
def halts_show(halt_id: str) -> None:
    """One halt: reason, detail, suggested amendment, its set and proposals."""
    with connect() as engine:
        view = engine.halts.show(halt_id)
    for key in ("id", "reason_code", "status", "detail", "suggested_amendment", "opened_at"):
        out.print(f"{key}: {view.halt.get(key)}", markup=False, highlight=False)
    out.print(f"set: {view.set['id']} ({view.set['status']})", markup=False)
    for proposal in view.proposals:
        out.print(
            f"proposal {proposal.id} by {proposal.writer_id} ({proposal.writer_kind.value}): "
            f"{len(proposal.entries)} entries",
            markup=False,
        )


@halts_app.command("resolve")
def halts_resolve(
    halt_id: str,
    reason: Annotated[str, typer.Option(help="Why: recorded on the resolution receipt.")],
    approve: Annotated[bool, typer.Option("--approve", help="Waive the predicate.")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="Reject the set.")] = False,
    amend: Annotated[
        Path | None, typer.Option("--amend", help="Propose this constitution, then re-decide.")
    ] = None,
    operator: Annotated[str | None, typer.Option(help="Operator id (default $USER).")] = None,
) -> None:
    """Resolve a halt: exactly one of --approve, --reject, --amend FILE."""
    chosen = [
        name for name, on in (("approve", approve), ("reject", reject), ("amend", amend)) if on
    ]
    if len(chosen) != 1:
        raise InputValidationError("give exactly one of --approve, --reject, --amend FILE")
    amendment = None
    if amend is not None:
        try:
            amendment = amend.read_text(encoding="utf-8")
        except OSError as error:
            raise ConfigurationError(f"cannot read {amend}: {error.strerror}") from None
    with connect() as engine:
        result = engine.halts.resolve(
            halt_id,
            chosen[0],
            operator_id=operator or operator_id(),
            reason=reason,
            amendment=amendment,
        )
    out.print(f"halt {result.halt_id} resolved: {result.resolution}", markup=False)
    if result.decision is not None:
        _print_decision(result.decision)


@app.command("demo")
def demo(
    no_start: Annotated[bool, typer.Option(help="Do not start a local server.")] = False,
) -> None:
    """Write to the real database and read it back."""
    from kg_context.cli.demo import run_demo

    engine = connect() if no_start else _up()
    with engine:
        run_demo(engine, Console(soft_wrap=True, width=max(out.width, 150)))


def main() -> None:
    """Entry point: run the CLI, turning kg-context errors into one line and exit code 1."""
    try:
        app(standalone_mode=False)
    except KgContextError as error:
        err.print(f"[red]error:[/] {escape(str(error))}")
        sys.exit(1)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        err.print("aborted")
        sys.exit(130)
    except typer.TyperException as error:  # usage errors: bad command, option or argument
        show = getattr(error, "show", None)
        if callable(show):
            show()
        else:
            err.print(f"[red]error:[/] {escape(str(error))}")
        sys.exit(int(getattr(error, "exit_code", 2)))
    except Exception as error:
        if os.environ.get("KG_CONTEXT_DEBUG") == "1":
            raise
        err.print(
            f"[red]internal error:[/] {escape(type(error).__name__)}: {escape(str(error))} "
            "(set KG_CONTEXT_DEBUG=1 for the traceback, and please report it)"
        )
        sys.exit(2)
