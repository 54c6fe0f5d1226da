"""kg-context: governed context for agent teams on Neo4j.

Errors print one line (what failed, what to do), never a traceback; the exit code says
what kind of failure it was (kg-context exit-codes lists them). --json prints one JSON
document on stdout.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from kg_context.cli import history as cli_history
from kg_context.cli import revalidation  # noqa: F401  (adds halts at-risk and halts revalidate)
from kg_context.cli.attention import attention_app
from kg_context.cli.audits import audit_app
from kg_context.cli.common import (
    ExitCode,
    JsonOption,
    connect,
    emit,
    err,
    exit_code_for,
    out,
    table,
)
from kg_context.cli.database import db_app, neo4j_app, schema_app, up
from kg_context.cli.operators import adopt_cmd, constitution_app, halts_app
from kg_context.cli.residency import register as register_residency
from kg_context.cli.revocations import revoke_app
from kg_context.errors import KgContextError
from kg_context.surfaces import MCP_TOOLS

__all__ = ["app", "main"]

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    help=__doc__,
)
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(db_app, name="db")
app.add_typer(schema_app, name="schema")
app.add_typer(constitution_app, name="constitution")
app.add_typer(halts_app, name="halts")
app.command("adopt")(adopt_cmd)
app.add_typer(revoke_app, name="revoke")
register_residency(app)  # czar run, window, why, stats, brief, recall, embed
app.add_typer(cli_history.history_app, name="history")
app.add_typer(audit_app, name="audit")
app.add_typer(cli_history.invalidation_app, name="invalidation")
app.add_typer(attention_app, name="attention")

EXIT_MEANINGS = {
    ExitCode.OK: "done; a decision committed; an invariant audit found nothing",
    ExitCode.REFUSED: "it ran and the answer is no: the gate halted or rejected the set, or a "
    "must-be-empty audit returned rows",
    ExitCode.USAGE: "a command, option or argument that does not exist or does not parse",
    ExitCode.NOT_RUNNING: "kg-context neo4j status: the local server is not running",
    ExitCode.INVALID_INPUT: "input, a file or a setting that cannot be used; nothing changed",
    ExitCode.STATE: "the record does not allow it: an unknown id, a halt no longer open, a "
    "specialist with no score yet",
    ExitCode.DATABASE: "Neo4j cannot be reached, refused the credentials, or failed a statement",
    ExitCode.ENVIRONMENT: "the local server, the embedding model or the machine failed",
    ExitCode.NOT_AUTHORIZED: "an operator's act (a constitution change, a halt resolution, an "
    "adoption) by an id the boundary's constitution does not name; nothing changed",
    ExitCode.INTERNAL: "an unexpected internal error (a bug; KG_CONTEXT_DEBUG=1 shows it)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}


@app.command("exit-codes")
def exit_codes(as_json: JsonOption = False) -> None:
    """The exit codes scripts can rely on.

    Example: kg-context exit-codes --json
    """
    rows = [{"code": int(code), "meaning": text} for code, text in EXIT_MEANINGS.items()]
    emit(rows, as_json, lambda: out.print(table(rows, title="kg-context exit codes")))


@app.command("serve")
def serve_cmd(
    host: Annotated[str | None, typer.Option(help="Listen here (KG_CONTEXT_API_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Listen here (KG_CONTEXT_API_PORT).")] = None,
    tokens: Annotated[
        Path | None, typer.Option(help="The token file (KG_CONTEXT_API_TOKENS_FILE).")
    ] = None,
) -> None:
    """Serve the HTTP API (FastAPI + uvicorn) over the resolved database; the OpenAPI spec is
    at /openapi.json, the docs at /docs.

    Example: kg-context serve --port 8787 --tokens tokens.toml
    """
    from kg_context.api import serve
    from kg_context.settings import ApiSettings, load_settings

    settings = load_settings(ApiSettings)
    overrides = {"host": host, "port": port, "tokens_file": tokens}
    settings = settings.model_copy(update={k: v for k, v in overrides.items() if v is not None})
    serve(settings)


class McpTransport(StrEnum):
    STDIO = "stdio"
    HTTP = "http"


_MCP_HELP = f"""Serve one boundary to agents over MCP: tools {", ".join(MCP_TOOLS[:-1])} and
{MCP_TOOLS[-1]}, on the HTTP API's tokens (stdio: the server runs as KG_CONTEXT_MCP_TOKEN; http:
each request brings its bearer token; a reader token cannot propose).

Example: kg-context mcp team-7 --transport stdio
"""


@app.command("mcp", help=_MCP_HELP)
def mcp_cmd(
    boundary_id: Annotated[str, typer.Argument(help="The boundary the server serves.")],
    transport: Annotated[
        McpTransport, typer.Option(help="stdio (one client, as KG_CONTEXT_MCP_TOKEN) or http.")
    ] = McpTransport.STDIO,
    host: Annotated[
        str | None, typer.Option(help="HTTP: listen here (KG_CONTEXT_MCP_HOST).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="HTTP: listen here (KG_CONTEXT_MCP_PORT).")
    ] = None,
) -> None:
    # The help is _MCP_HELP: it names the tools from the server's list (MCP_TOOLS).
    from kg_context.api.mcp_server import serve_mcp

    serve_mcp(boundary_id, transport=transport.value, host=host, port=port)


@app.command("demo")
def demo(
    no_start: Annotated[bool, typer.Option(help="Do not start a local server.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Run the scripted multi-agent session against the real database and report on it
    (what ``make demo`` runs).

    Example: kg-context demo --no-start
    """
    from kg_context.cli.demo import run_demo

    engine = connect() if no_start else up()
    with engine:
        report = run_demo(engine, Console(soft_wrap=True, width=max(out.width, 150), quiet=as_json))
    if as_json:
        emit(report, True, lambda: None)


def main() -> None:
    """Entry point: run the CLI, turning errors into one line and a documented exit code."""
    try:
        code = app(standalone_mode=False)
    except KgContextError as error:
        err.print(f"[red]error:[/] {escape(str(error))}")
        sys.exit(exit_code_for(error))
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        err.print("aborted")
        sys.exit(ExitCode.INTERRUPTED)
    except typer.TyperException as error:  # usage errors: bad command, option or argument
        show = getattr(error, "show", None)
        if callable(show):
            show()
        else:
            err.print(f"[red]error:[/] {escape(str(error))}")
        sys.exit(int(getattr(error, "exit_code", ExitCode.USAGE)))
    except Exception as error:
        if os.environ.get("KG_CONTEXT_DEBUG") == "1":
            raise
        err.print(
            f"[red]internal error:[/] {escape(type(error).__name__)}: {escape(str(error))} "
            "(set KG_CONTEXT_DEBUG=1 for the traceback, and please report it)"
        )
        sys.exit(ExitCode.INTERNAL)
    sys.exit(code if isinstance(code, int) else ExitCode.OK)
