"""CLI commands for residency: ``czar run``, ``window``, ``why``, ``stats``, ``recall``.

Registered on the main app by ``kg_context.cli.app`` (``register(app)``). Errors are
``KgContextError``s, which ``cli.main`` prints as one line.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from kg_context.cli.common import connect, existing, print_json

__all__ = ["register"]

out = Console(soft_wrap=True)
czar_app = typer.Typer(no_args_is_help=True, help="The compaction czar.")


def _print_json(data: object) -> None:
    print_json(out, data)


@czar_app.command("run")
def czar_run(
    boundary: str,
    czar_id: Annotated[
        str | None, typer.Option(help="The czar's writer id (default: the setting).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Plan a compaction of BOUNDARY and submit it through the gate."""
    from kg_context.residency.czar import run_czar

    with connect() as engine:
        report = run_czar(existing(engine, boundary), czar_id=czar_id)
    summary = report.summary()
    if as_json:
        _print_json(summary)
        return
    if not report.decisions:
        out.print(f"czar: nothing to compact in {boundary} at seq {summary['seq']}", markup=False)
    for d in summary["decisions"]:
        reason = f" ({d['reason_code']})" if d["reason_code"] else ""
        out.print(f"{d['outcome']}{reason}: set {d['set_id']} seq {d['seq']}", markup=False)
    out.print(
        f"retired {len(summary['retired'])}, out of window {len(summary['window_out'])}, "
        f"into window {len(summary['window_in'])}, interfaces {len(summary['interfaces'])}, "
        f"expired leases {summary['expired_leases']}",
        markup=False,
    )
    for line in summary["unclear"]:
        out.print(f"unclear: {line}", markup=False)


def window_cmd(
    boundary: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the window as JSON.")] = False,
) -> None:
    """Print the resident entries of BOUNDARY by class, with status tags and total tokens."""
    from kg_context.residency.window import window

    with connect() as engine:
        current = window(existing(engine, boundary))
    if as_json:
        _print_json(current.as_dict())
    else:
        out.print(current.render(), markup=False, highlight=False)


def why_cmd(boundary: str, entry: str) -> None:
    """Print the root path that keeps ENTRY of BOUNDARY resident, or say that none does."""
    from kg_context.residency.reachability import why

    with connect() as engine:
        path = why(existing(engine, boundary), entry)
    out.print(path.render(), markup=False, highlight=False)


def stats_cmd(
    boundary: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as JSON.")] = False,
) -> None:
    """Print retention ratio, resident tokens and halt counts of BOUNDARY."""
    from kg_context.residency.metrics import stats

    with connect() as engine:
        current = stats(existing(engine, boundary))
    if as_json:
        _print_json(current.as_dict())
        return
    ratio = current.retention_ratio
    out.print(
        f"{boundary} at seq {current.seq}: retention ratio "
        f"{'n/a (empty window)' if ratio is None else f'{ratio:.2f}'} "
        f"({current.committed_tokens} committed / {current.resident_tokens} resident tokens), "
        f"{current.resident_entries} resident of {current.record_entries} entries in the record, "
        f"halt rate {current.halt_rate:.2%}"
        + (f", halts {current.halts}" if current.halts else ""),
        markup=False,
    )


def recall_cmd(
    boundary: str,
    query: str,
    k: Annotated[int, typer.Option("-k", help="How many candidates.")] = 10,
) -> None:
    """Search the record of BOUNDARY for QUERY: candidates tagged with status and set."""
    from kg_context.residency.recall import recall

    with connect() as engine:
        hits = recall(existing(engine, boundary), query, k=k)
    for hit in hits:
        out.print(f"{hit.entry_id} [{hit.key}] {hit.tag()} ({hit.matched_by})", markup=False)


def register(app: typer.Typer) -> None:
    """Add the residency commands to the main CLI."""
    app.add_typer(czar_app, name="czar")
    app.command("window")(window_cmd)
    app.command("why")(why_cmd)
    app.command("stats")(stats_cmd)
    app.command("recall")(recall_cmd)
