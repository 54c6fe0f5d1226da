"""The ``kg-context`` command line.

Errors print one line (what failed, what to do), never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from kg_context import neo4j_local
from kg_context.connection import Source, resolve_source, target_for
from kg_context.engine import Engine
from kg_context.errors import KgContextError, LocalServerError
from kg_context.settings import LocalServerSettings, Neo4jSettings

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
    settings, local = Neo4jSettings(), LocalServerSettings()
    source = resolve_source(settings)
    with Engine.connect(target_for(source, settings, local)) as engine:
        out.print(f"{engine.target.describe()}: {engine.server_version()}")


@schema_app.command("apply")
def schema_apply() -> None:
    """Create every constraint and index (idempotent, safe to run concurrently)."""
    from kg_context.schema import apply_schema

    settings, local = Neo4jSettings(), LocalServerSettings()
    with Engine.connect(target_for(resolve_source(settings), settings, local)) as engine:
        names = apply_schema(engine.executor)
        out.print(f"schema applied to {engine.target.describe()}: {len(names)} rules online")


@app.command("demo")
def demo(
    no_start: Annotated[bool, typer.Option(help="Do not start a local server.")] = False,
) -> None:
    """Write to the real database and read it back."""
    from kg_context.demo import run_demo

    settings, local = Neo4jSettings(), LocalServerSettings()
    engine = (
        Engine.connect(target_for(resolve_source(settings), settings, local)) if no_start else _up()
    )
    with engine:
        run_demo(engine, out)


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


if __name__ == "__main__":
    main()
