"""``kg-context neo4j``, ``db`` and ``schema``: where the database is, and its schema."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Annotated, Any

import typer

from kg_context.cli.common import ExitCode, JsonOption, StepProgress, connect, emit, err, out
from kg_context.db import local_server as neo4j_local
from kg_context.db.connection import Source, resolve_source, target_for
from kg_context.engine import Engine
from kg_context.errors import LocalServerError
from kg_context.settings import LocalServerSettings, Neo4jSettings, load_settings

__all__ = ["db_app", "neo4j_app", "schema_app", "up"]

neo4j_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="The local Neo4j server (no Docker needed).",
)
db_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="The resolved database: NEO4J_URI, Docker, local.",
)
schema_app = typer.Typer(
    rich_markup_mode="markdown", no_args_is_help=True, help="Constraints, indexes and contracts."
)

COMPOSE_FILE = "docker-compose.yml"


def _state_dict(state: neo4j_local.ServerStatus) -> dict[str, Any]:
    return {
        "running": state.running,
        "pid": state.pid,
        "bolt_uri": state.bolt_uri,
        "browser_url": state.browser_url,
        "home_dir": str(state.home_dir),
        "detail": state.detail,
    }


def _start_local(settings: LocalServerSettings | None = None) -> neo4j_local.ServerStatus:
    with StepProgress("neo4j", len(neo4j_local.START_STEPS)) as step:
        return neo4j_local.start(settings, on_step=step)


def _compose_up() -> None:
    compose = Path.cwd() / COMPOSE_FILE
    if not compose.exists():
        raise LocalServerError(f"no {COMPOSE_FILE} in {Path.cwd()} for the Docker engine")
    done = subprocess.run(
        ["docker", "compose", "-f", str(compose), "up", "-d", "--wait"], check=False
    )
    if done.returncode != 0:
        raise LocalServerError("docker compose up -d --wait failed (see its output above)")


def up(source: Source | None = None) -> Engine:
    """Bring the resolved database up (start what is ours to start) and connect to it."""
    settings, local = Neo4jSettings(), load_settings(LocalServerSettings)
    source = source or resolve_source(settings)
    err.print(f"kg-context: database source: {source}", markup=False)
    if source == "docker":
        _compose_up()
    elif source == "local":
        _start_local(local)
    engine = Engine.connect(target_for(source, settings, local))
    err.print(
        f"kg-context: connected to {engine.target.describe()}: {engine.server_version()}",
        markup=False,
    )
    return engine


@neo4j_app.command("start")
def neo4j_start(as_json: JsonOption = False) -> None:
    """Provision (first time) and start the local Neo4j; a second start does nothing. A
    progress bar on stderr shows the steps.

    Example: kg-context neo4j start
    """
    state = _start_local()
    emit(
        _state_dict(state),
        as_json,
        lambda: out.print(
            f"Neo4j {state.detail}: Bolt {state.bolt_uri}  Browser {state.browser_url}",
            markup=False,
        ),
    )


@neo4j_app.command("stop")
def neo4j_stop(as_json: JsonOption = False) -> None:
    """Stop the local Neo4j; no java process is left behind.

    Example: kg-context neo4j stop
    """
    state = neo4j_local.stop()
    emit(_state_dict(state), as_json, lambda: out.print(f"Neo4j {state.detail}", markup=False))


@neo4j_app.command("status")
def neo4j_status(as_json: JsonOption = False) -> None:
    """Whether the local Neo4j runs, and where. Exits 3 when it does not run.

    Example: kg-context neo4j status --json
    """
    state = neo4j_local.status()

    def human() -> None:
        out.print(
            f"Neo4j {state.detail}: Bolt {state.bolt_uri}  Browser {state.browser_url}",
            markup=False,
        )
        out.print(f"home {state.home_dir}", markup=False)

    emit(_state_dict(state), as_json, human)
    if not state.running:
        raise typer.Exit(ExitCode.NOT_RUNNING)


@db_app.command("up")
def db_up() -> None:
    """Resolve the database (NEO4J_URI → Docker → local), start it if it is ours, connect.

    Example: kg-context db up
    """
    up().close()


@db_app.command("info")
def db_info(as_json: JsonOption = False) -> None:
    """Say which database the resolution picks, and its version (starts nothing).

    Example: kg-context db info --json
    """
    with connect() as engine:
        data = {
            "source": engine.target.source,
            "uri": engine.target.uri,
            "database": engine.target.database,
            "server": engine.server_version(),
        }
        emit(
            data,
            as_json,
            lambda: out.print(f"{engine.target.describe()}: {data['server']}", markup=False),
        )


@schema_app.command("apply")
def schema_apply(as_json: JsonOption = False) -> None:
    """Create every constraint and index (idempotent, safe to run concurrently); a progress
    bar on stderr counts the rules.

    Example: kg-context schema apply
    """
    from kg_context.db.schema import apply_schema, schema_steps

    with (
        connect(check_schema=False) as engine,
        StepProgress("schema", schema_steps()) as step,
    ):
        names = apply_schema(
            engine.executor, await_timeout_s=engine.settings.schema.await_timeout_s, on_step=step
        )
        where = engine.target.describe()
    emit(
        {"target": where, "rules": names},
        as_json,
        lambda: out.print(f"schema applied to {where}: {len(names)} rules online", markup=False),
    )


@schema_app.command("json")
def schema_json(
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Write one .schema.json per contract here.")
    ] = None,
) -> None:
    """Export the proposal and constitution contracts as JSON Schema (JSON on stdout, or one
    file per contract).

    Example: kg-context schema json --out schemas/
    """
    from kg_context.gate.pure.constitution import Constitution
    from kg_context.gate.pure.contracts import Proposal

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
    out.print(f"wrote {len(schemas)} schemas to {out_dir}", markup=False)
