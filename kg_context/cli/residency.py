"""CLI commands for residency: ``czar run``, ``czar cadence``, ``czar watch``, ``window``,
``context``, ``why``, ``stats``, ``brief``, ``recall``, ``embed``.

Registered on the main app by ``kg_context.cli.app`` (``register(app)``). Errors are
``KgContextError``s, which ``cli.main`` prints as one line.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Annotated, Any

import typer

from kg_context.cli.common import (
    BoundaryOption,
    ExitCode,
    JsonOption,
    StepProgress,
    connect,
    emit,
    existing,
    operator_id,
    out,
    table,
)

__all__ = ["register"]

czar_app = typer.Typer(
    rich_markup_mode="markdown", no_args_is_help=True, help="The compaction czar."
)


def _say(text: str) -> None:
    out.print(text, markup=False, highlight=False)


@czar_app.command("run")
def czar_run(
    boundary: str,
    czar_id: Annotated[
        str | None, typer.Option(help="The czar's writer id (default: the setting).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Plan a compaction of BOUNDARY and submit it through the gate (a progress bar on stderr
    counts the compaction sets). Exits 1 when the gate does not commit every set.

    Example: kg-context czar run team-7 --json
    """
    with StepProgress(f"czar {boundary}: compaction sets", None) as step, connect() as engine:
        report = existing(engine, boundary).run_czar(czar_id=czar_id, progress=step.counts)
    summary = report.summary()

    def human() -> None:
        if not report.decisions:
            _say(f"czar: nothing to compact in {boundary} at seq {summary['seq']}")
        for d in summary["decisions"]:
            reason = f" ({d['reason_code']})" if d["reason_code"] else ""
            _say(f"{d['outcome']}{reason}: set {d['set_id']} seq {d['seq']}")
        _say(
            f"retired {len(summary['retired'])}, out of window {len(summary['window_out'])}, "
            f"into window {len(summary['window_in'])}, interfaces {len(summary['interfaces'])}, "
            f"expired leases {summary['expired_leases']}"
        )
        for line in summary["unclear"]:
            _say(f"unclear: {line}")
        if report.warning:
            _say(f"WARNING: {report.warning}")

    emit(summary, as_json, human)
    if not report.committed:
        raise typer.Exit(ExitCode.REFUSED)


def _say_runs(runs: list[dict[str, Any]]) -> None:
    for run in runs:
        sets = len(run["decisions"])
        _say(f"czar {run['boundary_id']}: planned at seq {run['seq']}, {sets} set(s)")


@czar_app.command("watch")
def czar_watch(
    interval: Annotated[float, typer.Option(help="Seconds between rounds.")] = 5.0,
    once: Annotated[bool, typer.Option(help="One round, then exit.")] = False,
    boundary: Annotated[
        list[str] | None, typer.Option("--boundary", "-b", help="Only these boundaries.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Run the czar of every boundary whose recorded cadence is due, round after round (a
    process beside the writers: it covers boundaries whose writers' engines never schedule the
    czar). Each round prints the runs it made.

    Example: kg-context czar watch --interval 10 -b team-7
    """
    with connect() as engine:
        engine.warm()  # the model its compaction sets embed with, before the first round
        while True:
            reports = engine.run_due_czars(boundary_ids=boundary)
            ran = [r.summary() for r in reports]
            emit({"runs": ran}, as_json, partial(_say_runs, ran))
            if once:
                return
            time.sleep(interval)


@czar_app.command("cadence")
def czar_cadence(
    boundary: str,
    every: int,
    reason: Annotated[str, typer.Option(help="Why the cadence changes (kept on the boundary).")],
    as_json: JsonOption = False,
) -> None:
    """Set the czar's cadence BOUNDARY keeps: a run after every EVERY sets of its work (0: only
    ``czar run``), whichever engine commits. An operator's act (``KG_CONTEXT_OPERATOR``, default
    ``operator``: an id the boundary's constitution names).

    Example: kg-context czar cadence team-7 50 --reason "a slower handle" --json
    """
    operator = operator_id()
    with connect() as engine:
        cadence = engine.set_czar_cadence(boundary, every, operator_id=operator, reason=reason)
    summary = {"boundary_id": boundary, "czar_every_commits": cadence, "operator_id": operator}
    emit(summary, as_json, lambda: _say(f"czar cadence of {boundary}: every {cadence} set(s)"))


def window_cmd(boundary: str, as_json: JsonOption = False) -> None:
    """Print the resident entries of BOUNDARY by class, with status tags and total tokens.

    Example: kg-context window team-7 --json
    """
    with connect() as engine:
        current = existing(engine, boundary).window()
    emit(current.as_dict(), as_json, lambda: _say(current.render()))


def context_cmd(
    boundary: str,
    budget: Annotated[int, typer.Option("--budget", min=0, help="At most this many tokens.")],
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="Add record candidates for this query.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Print the window of BOUNDARY as a budgeted, citable context block (ids, status tags,
    needs; what was left out and how to get it); --json adds its tokens and manifest.

    Example: kg-context context team-7 --budget 8192 --query "graph database"
    """
    with connect() as engine:
        found = existing(engine, boundary).context(budget, query=query)
    emit(found.as_dict(), as_json, lambda: _say(found.text))


def why_cmd(entry: str, boundary: BoundaryOption, as_json: JsonOption = False) -> None:
    """Print the root path that keeps ENTRY of the boundary resident, or say that none does.

    Example: kg-context why db-2 -b team-7
    """
    with connect() as engine:
        path = existing(engine, boundary).why(entry)
    emit(path.as_dict(), as_json, lambda: _say(path.render()))


def stats_cmd(boundary: str, as_json: JsonOption = False) -> None:
    """Print retention ratio, resident tokens, halt counts, error rates (in full: ``kg-context
    audit rates``) and when the czar last ran and what it retired, of BOUNDARY.

    Example: kg-context stats team-7 --json
    """
    with connect() as engine:
        current = existing(engine, boundary).stats()

    def human() -> None:
        ratio = current.retention_ratio
        _say(
            f"{boundary} at seq {current.seq}: retention ratio "
            f"{'n/a (empty window)' if ratio is None else f'{ratio:.2f}'} "
            f"({current.committed_tokens} committed / {current.resident_tokens} resident tokens), "
            f"{current.resident_entries} resident of {current.record_entries} entries in the "
            f"record, halt rate {current.halt_rate:.2%} (halts raised / sets decided; "
            f"{current.halts_open} open, {current.halts_resolved} resolved)"
            + (f", halts {current.halts}" if current.halts else "")
        )
        rates = current.error_rates
        _say(
            f"error rates: false retirement {rates.false_retirement.render()}, false "
            f"supersession {rates.false_supersession.render()}, resurrection "
            f"{rates.resurrection.render()}; at risk revalidated "
            f"{rates.at_risk_revalidated.render()}, abandoned {rates.at_risk_abandoned.render()}; "
            f"time to detection {rates.detection().render()} (sets)"
        )
        czar = current.czar
        if czar.runs == 0:
            _say("czar: never ran")
        else:
            _say(
                f"czar: last ran at seq {czar.last_seq} ({czar.last_ran_at}, "
                f"{czar.last_trigger}), retired {czar.last_retired}, out of window "
                f"{czar.last_window_out}; {czar.runs} run(s), {czar.retired_total} retired "
                f"and {czar.window_out_total} out of window in total"
            )
        if czar.last_warning:
            _say(f"WARNING (czar): {czar.last_warning}")

    emit(current.as_dict(), as_json, human)


def brief_cmd(
    boundary: BoundaryOption,
    since: Annotated[
        int | None,
        typer.Option("--since", help="From this seq (default: the last recorded briefing's seq)."),
    ] = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record", help="Record it as an audit event: the next briefing starts here."
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Print the operator's briefing of the boundary: sets by outcome, halts (open first), czar
    activity and its warnings, invalidations and blast radii, the retention trend, error rates,
    and the amendments halts suggest, since the last recorded briefing. A read, unless --record
    records it (an operator's write that moves where the next briefing starts).

    Example: kg-context brief -b team-7 --since 10 --record --json
    """
    with connect() as engine:
        handle = existing(engine, boundary)
        found = handle.record_brief(since_seq=since) if record else handle.brief(since_seq=since)
    emit(found.as_dict(), as_json, lambda: _say(found.render()))


def recall_cmd(
    boundary: str,
    query: str,
    k: Annotated[int, typer.Option("-k", help="How many candidates.")] = 10,
    as_json: JsonOption = False,
) -> None:
    """Search the record of BOUNDARY for QUERY: candidates tagged with status and set (changes
    nothing; admission goes through the gate).

    Example: kg-context recall team-7 "graph database" -k 5
    """
    with connect() as engine:
        hits = existing(engine, boundary).recall(query, k=k)
    rows = [h.as_dict() for h in hits]
    emit(
        rows,
        as_json,
        lambda: out.print(table(rows, ["entry_id", "key", "tag", "matched_by", "score"])),
    )


def embed_cmd(boundary: str, as_json: JsonOption = False) -> None:
    """Embed the entries of BOUNDARY committed and not embedded yet (a write: what each commit
    does itself unless KG_CONTEXT_EMBEDDING_ON_COMMIT=false; run it as the operator's worker
    then). Prints how many it embedded.

    Example: kg-context embed team-7
    """
    with connect() as engine:
        embedded = existing(engine, boundary).embed_pending()
    emit({"boundary_id": boundary, "embedded": embedded}, as_json,
         lambda: _say(f"{boundary}: {embedded} entries embedded"))  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add the residency commands to the main CLI."""
    app.add_typer(czar_app, name="czar")
    app.command("window")(window_cmd)
    app.command("context")(context_cmd)
    app.command("why")(why_cmd)
    app.command("stats")(stats_cmd)
    app.command("brief")(brief_cmd)
    app.command("embed")(embed_cmd)
    app.command("recall")(recall_cmd)
