"""``kg-context history`` and ``kg-context invalidation`` commands.

History is answered by walking: the index, the ledger walk from one set, the record as of a seq,
and search that returns set ids with status (never passages). Invalidation challenges or
invalidates an entry or a set and commits one blast-radius set through the gate.
"""

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
)

__all__ = ["history_app", "invalidation_app"]

history_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="Read history: index, walk, as-of, search.",
)
invalidation_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="Challenge or invalidate an entry or a set (a blast-radius set).",
)


def _say(text: str) -> None:
    out.print(text, markup=False)


def _lines(lines: list[str]) -> None:
    for line in lines:
        _say(line)


@history_app.command("index")
def history_index(
    boundary: BoundaryOption,
    from_seq: Annotated[int, typer.Option("--from", help="First seq.")] = 0,
    to_seq: Annotated[int | None, typer.Option("--to", help="Last seq.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many sets.")] = 1000,
    as_json: JsonOption = False,
) -> None:
    """The governed history index: every ratified set in ledger order (seq, id, kind, where its
    entries stand, its index line; the last `[history_index] resident_last` are in the window).

    Example: kg-context history index -b team-7 --from 10 --to 20
    """
    with connect() as engine:
        lines = existing(engine, boundary).history_index(
            from_seq=from_seq, to_seq=to_seq, limit=limit
        )
    emit([line.as_dict() for line in lines], as_json, lambda: _lines([x.line() for x in lines]))


@history_app.command("walk")
def history_walk(set_id: str, boundary: BoundaryOption, as_json: JsonOption = False) -> None:
    """Open one set: what it decided, superseded, depended on; what later superseded,
    invalidated or built on it.

    Example: kg-context history walk s-1 -b team-7
    """
    with connect() as engine:
        opened = existing(engine, boundary).walk(set_id)
    emit(opened.as_dict(), as_json, lambda: _lines(opened.lines()))


@history_app.command("as-of")
def history_as_of(
    seq: int,
    boundary: BoundaryOption,
    all_: Annotated[bool, typer.Option("--all", help="The whole record, not the window.")] = False,
    as_json: JsonOption = False,
) -> None:
    """The window (or the whole record) as it stood right after SEQ, derived from the ledger.

    Example: kg-context history as-of 2 -b team-7 --all
    """
    with connect() as engine:
        view = existing(engine, boundary).as_of(seq)
    shown = view.entries if all_ else view.window

    def human() -> None:
        _say(
            f"boundary {boundary} as of seq {seq}: {len(view.window)} resident of "
            f"{len(view.entries)}"
        )
        for e in shown:
            where = "resident" if e.resident else "out"
            _say(
                f"  {e.id}  {e.entry_class} {e.key!r}  {e.status} ({where}, since seq "
                f"{e.status_seq})  set {e.set_id} seq {e.set_seq}"
            )

    emit(view.as_dict(window_only=not all_), as_json, human)


@history_app.command("search")
def history_search(
    text: str,
    boundary: BoundaryOption,
    k: Annotated[int, typer.Option("-k", "--limit", help="How many matches.")] = 10,
    thoughts: Annotated[
        bool,
        typer.Option(
            "--thoughts",
            help="Search the thoughts (attention and bus proposals: won, lost, inhibited).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Search the record; answers name sets with status, never passages. With --thoughts,
    search the proposals the record keeps, each with its writer, contest and outcome.

    Example: kg-context history search "Neo4j" -b team-7 -k 5
    """
    with connect() as engine:
        handle = existing(engine, boundary)
        if thoughts:
            found = handle.search_thoughts(text, k=k)
            data = [asdict(t) | {"at": t.at.isoformat() if t.at else None} for t in found]
            emit(data, as_json, lambda: _lines([t.line() for t in found]))
            return
        hits = handle.search(text, k=k)
    emit([h.as_dict() for h in hits], as_json, lambda: _lines([h.line() for h in hits]))


def _invalidation(
    target: str, boundary: str, reason: str, writer: str | None, mode: str, as_json: bool
) -> None:
    writer_id = writer or operator_id()
    with connect() as engine:
        handle = existing(engine, boundary)
        run = handle.challenge if mode == "challenge" else handle.invalidate
        result = run(target, reason=reason, writer_id=writer_id)

    def human() -> None:
        for part in result.decisions:
            _say(f"{part.outcome}: set {part.set_id} seq {part.seq} receipt {part.receipt_id}")
            if part.reason_code:
                _say(f"  [{part.reason_code}] {part.detail}")
        if not result.complete:
            left = result.parts - len(result.decisions)
            _say(f"  {left} of {result.parts} parts not proposed: run the command again")
        _say(f"  {result.proposal.summary}")
        actions = result.recovery_actions()
        _say("  recovery actions: " + " ".join(f"{k}={v}" for k, v in actions.items()))

    emit(result.as_dict(), as_json, human)
    if not result.complete:
        raise typer.Exit(ExitCode.REFUSED)


ReasonOption = Annotated[str, typer.Option(help="Why (recorded on the transitions).")]
WriterOption = Annotated[
    str | None, typer.Option(help="Writer id (default KG_CONTEXT_OPERATOR, then operator).")
]


@invalidation_app.command("challenge")
def invalidation_challenge(
    target: str,
    boundary: BoundaryOption,
    reason: ReasonOption,
    writer: WriterOption = None,
    as_json: JsonOption = False,
) -> None:
    """Challenge an entry or every entry of a set; essential descendants go at_risk. Exits 1
    when the gate does not commit the blast-radius set.

    Example: kg-context invalidation challenge goal-1 -b team-7 --reason "misread"
    """
    _invalidation(target, boundary, reason, writer, "challenge", as_json)


@invalidation_app.command("invalidate")
def invalidation_invalidate(
    target: str,
    boundary: BoundaryOption,
    reason: ReasonOption,
    writer: WriterOption = None,
    as_json: JsonOption = False,
) -> None:
    """Invalidate an entry or every entry of a set; essential descendants go at_risk. Exits 1
    when the gate does not commit the blast-radius set.

    Example: kg-context invalidation invalidate s-1 -b team-7 --reason "wrong source"
    """
    _invalidation(target, boundary, reason, writer, "invalidate", as_json)
