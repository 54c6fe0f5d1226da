"""``kg-context attention``: what orchestrator operators read about workspace attention."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from kg_context.attention import AttentionScope, WorkspaceAttention
from kg_context.cli.common import ExitCode, JsonOption, connect, emit, existing, out, table
from kg_context.errors import InputValidationError, StateError

__all__ = ["attention_app"]

attention_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="Workspace attention: specialists' scores and waves.",
)


@attention_app.command("score")
def attention_score(
    specialist: str,
    boundary: Annotated[
        str | None,
        typer.Option(
            "--boundary",
            "-b",
            help="The boundary whose proposals the score is read from (it must exist): "
            "scores are per boundary.",
        ),
    ] = None,
    across: Annotated[
        bool,
        typer.Option(
            "--global",
            help="Read the score across every boundary instead (the explicit global scope; "
            "takes no --boundary).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """A specialist's attention score in one boundary: the composite of its latest selected
    proposal there (one indexed read; its work in other boundaries never counts), or with
    `--global` across every boundary. Exits 5 when it has no selected proposal there yet.

    Example: kg-context attention score planner -b team-7 --json
    """
    if across == (boundary is not None):
        raise InputValidationError(
            "name the boundary (--boundary B), or read across boundaries with --global"
        )
    with connect() as engine:
        if boundary is not None:
            handle = existing(engine, boundary)
            attention = WorkspaceAttention(engine, boundary_id=boundary, sink=handle)
        else:
            attention = WorkspaceAttention(engine, scope=AttentionScope.GLOBAL)
        read = attention.attention_score(specialist)
    score = read.score
    where = f"in {read.boundary_id}" if read.boundary_id else "across every boundary"
    emit(
        read.as_dict(),
        as_json,
        lambda: out.print(
            f"{specialist} {where}: "
            + ("no selected proposal yet" if score is None else f"attention score {score:.4f}"),
            markup=False,
        ),
    )
    if score is None:
        raise typer.Exit(ExitCode.STATE)


@attention_app.command("wave")
def attention_wave(wave: str, as_json: JsonOption = False) -> None:
    """One attention wave: every proposal in rank order, its specialist, task, scores, whether
    it won, and what the gate did with it (cypher/audits/attention_wave.cypher).

    Example: kg-context attention wave w01754550000000000000-1a2b3c4d
    """
    with connect() as engine:
        rows = engine.run_audit("attention_wave", params={"wave_id": wave}).rows
    if not rows:
        raise StateError(f"no attention wave {wave}")
    keys = ("rank", "specialist", "task", "composite", "relevance", "track_record")
    flat: list[dict[str, Any]] = [
        {
            "rank": r["p"].get("rank"),
            "specialist": r["specialist"],
            "task": r["task"],
            "composite": r["p"].get("composite"),
            "relevance": r["p"].get("relevance"),
            "track_record": r["p"].get("track_record"),
            "confidence": r["p"].get("confidence"),
            "selected": r["p"].get("selected"),
            "outcome": r["p"].get("outcome"),
            "proposal_id": r["p"].get("id"),
        }
        for r in rows
    ]
    columns = [*keys, "confidence", "selected", "outcome"]
    emit(flat, as_json, lambda: out.print(table(flat, columns, title=f"wave {wave}")))
