"""``kg-context history``, ``kg-context audit`` and ``kg-context invalidation`` commands.

History is answered by walking: the index, the ledger walk from one set, the record as of a seq,
and search that returns set ids with status (never passages). The audit lists candidate false
retirements and resurrections; invalidation challenges or invalidates an entry or a set and
commits one blast-radius set through the gate.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from kg_context.cli.common import connect, existing, operator_id

__all__ = ["audit_app", "history_app", "invalidation_app"]

history_app = typer.Typer(no_args_is_help=True, help="Read history: index, walk, as-of, search.")
audit_app = typer.Typer(no_args_is_help=True, help="Error observability audits.")
invalidation_app = typer.Typer(
    no_args_is_help=True, help="Challenge or invalidate an entry or a set (a blast-radius set)."
)

out = Console(soft_wrap=True, highlight=False)

BoundaryOption = Annotated[str, typer.Option("--boundary", "-b", help="The boundary id.")]


def _say(text: str) -> None:
    out.print(text, markup=False)


@history_app.command("index")
def history_index(
    boundary: BoundaryOption,
    from_seq: Annotated[int, typer.Option("--from", help="First seq.")] = 0,
    to_seq: Annotated[int | None, typer.Option("--to", help="Last seq.")] = None,
    limit: int = 1000,
) -> None:
    """Every ratified set in ledger order: seq, id, kind, where its entries stand, summary."""
    from kg_context.record.history import index

    with connect() as engine:
        team = existing(engine, boundary)
        for line in index(team, from_seq=from_seq, to_seq=to_seq, limit=limit):
            _say(line.line())


@history_app.command("walk")
def history_walk(set_id: str, boundary: BoundaryOption) -> None:
    """Open one set of a boundary: what it decided, superseded, depended on; what later
    superseded, invalidated or built on it."""
    from kg_context.record.history import walk

    with connect() as engine:
        for line in walk(existing(engine, boundary), set_id).lines():
            _say(line)


@history_app.command("as-of")
def history_as_of(
    seq: int,
    boundary: BoundaryOption,
    all_: Annotated[bool, typer.Option("--all", help="The whole record, not the window.")] = False,
) -> None:
    """The window (or the whole record) as it stood right after SEQ, derived from the ledger."""
    from kg_context.record.history import as_of

    with connect() as engine:
        view = as_of(existing(engine, boundary), seq)
    shown = view.entries if all_ else view.window
    _say(f"boundary {boundary} as of seq {seq}: {len(view.window)} resident of {len(view.entries)}")
    for e in shown:
        where = "resident" if e.resident else "out"
        _say(
            f"  {e.id}  {e.entry_class} {e.key!r}  {e.status} ({where}, since seq "
            f"{e.status_seq})  set {e.set_id} seq {e.set_seq}"
        )


@history_app.command("search")
def history_search(
    text: str,
    boundary: BoundaryOption,
    k: Annotated[int, typer.Option("-k", "--limit", help="How many matches.")] = 10,
) -> None:
    """Search the record; answers name sets with status, never passages."""
    from kg_context.record.history import search

    with connect() as engine:
        for hit in search(existing(engine, boundary), text, k=k):
            _say(hit.line())


@audit_app.command("false-retirements")
def audit_false_retirements(boundary: BoundaryOption) -> None:
    """Candidate false retirements (retired, later shown needed) and resurrections."""
    from kg_context.record.observability import audit

    with connect() as engine:
        report = audit(existing(engine, boundary))
    _say(" ".join(f"{k}={v}" for k, v in report.counts().items()))
    for f in report.false_retirements:
        _say(
            f"candidate {f.entry_id} ({f.key!r}) retired at seq {f.retired_at_seq} by set "
            f"{f.retired_by_set} ({f.retired_by}); justified by {list(f.justification)}"
        )
        for ev in f.evidence:
            _say(f"    needed: {ev['kind']} {ev['edge']} from {ev['by']} in set {ev['set_id']}")
    for r in report.resurrections:
        _say(
            f"resurrection {r.entry_id} ({r.key!r}): record says {r.status} "
            f"resident={r.resident}; the ledger left it {r.ledger_status} "
            f"resident={r.ledger_resident} at seq {r.ledger_seq}"
        )
    for u in report.unjustified_retirements:
        _say(f"unjustified retirement {u['entry_id']} by set {u['set_id']} at seq {u['seq']}")


def _invalidation(target: str, boundary: str, reason: str, writer: str | None, mode: str) -> None:
    from kg_context.record.invalidation import challenge, invalidate

    run = challenge if mode == "challenge" else invalidate
    writer_id = writer or operator_id(default="op")
    with connect() as engine:
        result = run(existing(engine, boundary), target, reason=reason, writer_id=writer_id)
    d = result.decision
    _say(f"{d.outcome}: set {d.set_id} seq {d.seq} receipt {d.receipt_id}")
    if d.reason_code:
        _say(f"  [{d.reason_code}] {d.detail}")
    _say(f"  {result.proposal.summary}")
    actions = result.recovery_actions()
    _say("  recovery actions: " + " ".join(f"{k}={v}" for k, v in actions.items()))
    if d.outcome != "commit":
        raise typer.Exit(1)


@invalidation_app.command("challenge")
def invalidation_challenge(
    target: str,
    boundary: BoundaryOption,
    reason: Annotated[str, typer.Option(help="Why it is challenged (recorded).")],
    writer: Annotated[str | None, typer.Option(help="Writer id (default $USER).")] = None,
) -> None:
    """Challenge an entry or every entry of a set; essential descendants go at_risk."""
    _invalidation(target, boundary, reason, writer, "challenge")


@invalidation_app.command("invalidate")
def invalidation_invalidate(
    target: str,
    boundary: BoundaryOption,
    reason: Annotated[str, typer.Option(help="Why it is invalid (recorded).")],
    writer: Annotated[str | None, typer.Option(help="Writer id (default $USER).")] = None,
) -> None:
    """Invalidate an entry or every entry of a set; essential descendants go at_risk."""
    _invalidation(target, boundary, reason, writer, "invalidate")
