"""``kg-context halts at-risk`` and ``kg-context halts revalidate``: the revalidation queue, the
at-risk entries an operator works through beside the gate's halts (only an operator the
boundary's constitution names resolves one; else exit 8)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

import typer

from kg_context.cli.common import (
    BoundaryOption,
    ExitCode,
    JsonOption,
    connect,
    emit,
    existing,
    operator_id,
    out,
    table,
)
from kg_context.cli.operators import halts_app, print_decision
from kg_context.errors import InputValidationError
from kg_context.vocabulary import Outcome

__all__ = ["halts_at_risk", "halts_revalidate"]


@halts_app.command("at-risk")
def halts_at_risk(
    boundary: BoundaryOption,
    all_: Annotated[bool, typer.Option("--all", help="Resolved items too.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many items.")] = 100,
    as_json: JsonOption = False,
) -> None:
    """The revalidation queue: at-risk entries awaiting the operator, newest first, and the
    queue's figures (opened, resolved, time to resolution).

    Example: kg-context halts at-risk -b team-7 --all
    """
    with connect() as engine:
        existing(engine, boundary)
        items = engine.halts.at_risk(boundary, None if all_ else "open", limit)
        figures = engine.halts.figures(boundary)
    rows = [{**asdict(i), "open": i.open} for i in items]
    data = {"items": rows, "figures": {**asdict(figures), "open": figures.open}}

    def human() -> None:
        columns = ["entry_id", "entry_class", "opened_seq", "case", "resolution", "reason"]
        out.print(table(rows, columns, title="at risk"))
        mean = figures.mean_resolution_seconds
        out.print(
            f"opened {figures.opened}, resolved {figures.resolved}, open {figures.open}, "
            f"mean time to resolution {'-' if mean is None else f'{mean:.1f} s'}",
            markup=False,
            highlight=False,
        )

    emit(data, as_json, human)


@halts_app.command("revalidate")
def halts_revalidate(
    entry_id: str,
    boundary: BoundaryOption,
    reason: Annotated[str, typer.Option(help="Why: recorded on the resolving set.")],
    revalidate: Annotated[bool, typer.Option("--revalidate", help="It holds.")] = False,
    retire: Annotated[bool, typer.Option("--retire", help="Take it out.")] = False,
    confirm: Annotated[
        bool, typer.Option("--confirm", help="It failed: invalidate it (its descendants at risk).")
    ] = False,
    operator: Annotated[
        str | None, typer.Option(help="Operator id (default KG_CONTEXT_OPERATOR, then operator).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Resolve one at-risk entry: exactly one of --revalidate, --retire, --confirm. Exits 1 when
    the resolving set does not commit.

    Example: kg-context halts revalidate db-2 -b team-7 --revalidate --reason "re-checked"
    """
    chosen = [
        name
        for name, on in (("revalidate", revalidate), ("retire", retire), ("confirm", confirm))
        if on
    ]
    if len(chosen) != 1:
        raise InputValidationError("give exactly one of --revalidate, --retire, --confirm")
    with connect() as engine:
        existing(engine, boundary)
        done = engine.halts.resolve_at_risk(
            boundary, entry_id, chosen[0], operator_id=operator or operator_id(), reason=reason
        )
    data = {
        "entry_id": done.entry_id,
        "action": done.action.value,
        "decision": done.decision.as_dict(),
    }
    emit(data, as_json, lambda: print_decision(done.decision))
    if done.decision.outcome != Outcome.COMMIT:
        raise typer.Exit(ExitCode.REFUSED)
