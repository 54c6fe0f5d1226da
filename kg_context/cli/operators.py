"""``kg-context constitution``, ``kg-context halts`` and ``kg-context adopt``: what operators
author and decide (only the operator ids a boundary's constitution names may)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
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
from kg_context.errors import ConfigurationError, InputValidationError
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import HaltStatus, Outcome

__all__ = ["adopt_cmd", "constitution_app", "halts_app", "print_decision"]

constitution_app = typer.Typer(
    rich_markup_mode="markdown", no_args_is_help=True, help="The operator's constitution."
)
halts_app = typer.Typer(
    rich_markup_mode="markdown", no_args_is_help=True, help="Halts: list, show, resolve."
)

OperatorOption = Annotated[
    str | None, typer.Option(help="Operator id (default KG_CONTEXT_OPERATOR, then operator).")
]


def _say(text: str) -> None:
    out.print(text, markup=False, highlight=False)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(f"cannot read {path}: {error.strerror}") from None


def print_decision(decision: Decision) -> None:
    line = f"{decision.outcome}: set {decision.set_id} receipt {decision.receipt_id}"
    if decision.seq is not None:
        line += f" seq {decision.seq}"
    if decision.reason_code:
        line += f" [{decision.reason_code}] {decision.detail}"
    _say(line)


@constitution_app.command("show")
def constitution_show(
    boundary: Annotated[
        str | None, typer.Option(help="Show this boundary's constitution (default: shipped).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Print a constitution's TOML: the shipped default, or a boundary's current one.

    Example: kg-context constitution show --boundary team-7
    """
    from kg_context.gate.pure.constitution import load_constitution

    if boundary is None:
        current = load_constitution()
    else:
        with connect() as engine:
            current = existing(engine, boundary).constitution()
    data = {"version": current.version, "sha256": current.sha256, "text": current.text}
    emit(data, as_json, lambda: _say(current.text))


@constitution_app.command("validate")
def constitution_validate(path: Path, as_json: JsonOption = False) -> None:
    """Validate a constitution file (no database needed). Exits 4 when it is not valid.

    Example: kg-context constitution validate docs/examples/wide-fanout.toml
    """
    from kg_context.gate.pure.constitution import load_constitution

    parsed = load_constitution(path)
    emit(
        {"path": str(path), "version": parsed.version, "sha256": parsed.sha256},
        as_json,
        lambda: _say(
            f"{path}: valid constitution version {parsed.version} (sha256 {parsed.sha256[:12]})"
        ),
    )


@constitution_app.command("propose")
def constitution_propose(
    path: Path,
    boundary: Annotated[str, typer.Option(help="The boundary whose constitution changes.")],
    reason: Annotated[str, typer.Option(help="Why the constitution changes.")],
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Propose a new constitution version as a governed set by an operator writer. Exits 1
    when the gate does not ratify it.

    Example: kg-context constitution propose new.toml --boundary team-7 --reason "wider fan-out"
    """
    text = _read(path)
    with connect() as engine:
        decision = existing(engine, boundary).propose_constitution(
            text, writer_id=operator or operator_id(), reason=reason
        )
    emit(decision.as_dict(), as_json, lambda: print_decision(decision))
    if decision.outcome != Outcome.COMMIT:
        raise typer.Exit(ExitCode.REFUSED)


@constitution_app.command("suggest")
def constitution_suggest(
    boundary: BoundaryOption,
    since: Annotated[
        int | None, typer.Option("--since", help="Only halts opened at or after this seq.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The constitution amendments the boundary's recurring halt classes suggest: each a
    threshold that decides every halt of its class the way the operator resolved it.

    Example: kg-context constitution suggest -b team-7
    """
    with connect() as engine:
        found = existing(engine, boundary).suggest_amendments(since_seq=since)

    def human() -> None:
        if not found:
            _say(f"no amendment suggested for {boundary}")
        for s in found:
            _say(f"{s.id}  ({s.count} halts: {', '.join(s.halt_ids)})")
            _say(f"  {s.rationale}")
            _say(f"  proposes version {s.constitution_version}:")
            for line in s.fragment.splitlines():
                _say(f"    {line}")

    emit([s.as_dict() for s in found], as_json, human)


@constitution_app.command("adopt-suggestion")
def constitution_adopt_suggestion(
    suggestion_id: str,
    boundary: BoundaryOption,
    reason: Annotated[str | None, typer.Option(help="Why (default: the rationale).")] = None,
    since: Annotated[
        int | None, typer.Option("--since", help="As suggest --since computed it.")
    ] = None,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Propose a suggested amendment's constitution as a governed set by an operator writer
    (only an operator the boundary's constitution names). Exits 1 when it is not ratified.

    Example: kg-context constitution adopt-suggestion DENSITY:density.max_set_fanout=80 -b team-7
    """
    with connect() as engine:
        decision = existing(engine, boundary).adopt_suggestion(
            suggestion_id,
            writer_id=operator or operator_id(),
            reason=reason,
            since_seq=since,
        )
    emit(decision.as_dict(), as_json, lambda: print_decision(decision))
    if decision.outcome != Outcome.COMMIT:
        raise typer.Exit(ExitCode.REFUSED)


@halts_app.command("list")
def halts_list(
    boundary: Annotated[str | None, typer.Option(help="Only this boundary.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Resolved halts too.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many halts.")] = 100,
    as_json: JsonOption = False,
) -> None:
    """Open halts (or all), newest first: the operator's queue.

    Example: kg-context halts list --boundary team-7 --all
    """
    with connect() as engine:
        halts = engine.halts.list(boundary, None if all_ else HaltStatus.OPEN, limit)
    rows = [asdict(halt) for halt in halts]
    columns = ["id", "reason_code", "status", "opened_at", "detail"]
    emit(rows, as_json, lambda: out.print(table(rows, columns, title="halts")))


@halts_app.command("show")
def halts_show(halt_id: str, as_json: JsonOption = False) -> None:
    """One halt: reason, detail, suggested amendment, its set and proposals.

    Example: kg-context halts show team-7/s-3/halt/1
    """
    with connect() as engine:
        view = engine.halts.show(halt_id)

    def human() -> None:
        for key in ("id", "reason_code", "status", "detail", "suggested_amendment", "opened_at"):
            _say(f"{key}: {getattr(view.halt, key)}")
        _say(f"set: {view.set.id} ({view.set.status})")
        for proposal in view.proposals:
            _say(
                f"proposal {proposal.id} by {proposal.writer_id} ({proposal.writer_kind.value}): "
                f"{len(proposal.entries)} entries"
            )

    emit(view.as_dict(), as_json, human)


@halts_app.command("resolve")
def halts_resolve(
    halt_id: str,
    reason: Annotated[str, typer.Option(help="Why: recorded on the resolution receipt.")],
    approve: Annotated[bool, typer.Option("--approve", help="Waive the predicate.")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="Reject the set.")] = False,
    amend: Annotated[
        Path | None, typer.Option("--amend", help="Propose this constitution, then re-decide.")
    ] = None,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Resolve a halt: exactly one of --approve, --reject, --amend FILE. Exits 1 when the set,
    decided again, does not commit (it halted again or was rejected).

    Example: kg-context halts resolve team-7/s-3/halt/1 --reject --reason "already superseded"
    """
    chosen = [
        name for name, on in (("approve", approve), ("reject", reject), ("amend", amend)) if on
    ]
    if len(chosen) != 1:
        raise InputValidationError("give exactly one of --approve, --reject, --amend FILE")
    amendment = _read(amend) if amend is not None else None
    with connect() as engine:
        result = engine.halts.resolve(
            halt_id,
            chosen[0],
            operator_id=operator or operator_id(),
            reason=reason,
            amendment=amendment,
        )

    def human() -> None:
        _say(f"halt {result.halt_id} resolved: {result.resolution}")
        if result.decision is not None:
            print_decision(result.decision)

    emit(result.as_dict(), as_json, human)
    if result.decision is not None and result.decision.outcome != Outcome.COMMIT:
        raise typer.Exit(ExitCode.REFUSED)


def adopt_cmd(
    boundary: str,
    key: Annotated[list[str], typer.Option("--key", help="A key the receipt covers (repeat).")],
    reason: Annotated[str, typer.Option(help="Why: recorded on the adoption receipt.")],
    uses: Annotated[int, typer.Option(help="How many ratified sets may use it.")] = 1,
    valid_until_seq: Annotated[
        int | None, typer.Option(help="The last seq of BOUNDARY at which it may be used.")
    ] = None,
    material_verse: Annotated[
        str | None,
        typer.Option(help="The verse of the material it adopts (then only that verse's)."),
    ] = None,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Issue an adoption receipt of BOUNDARY (an operator its constitution names; else exit 8):
    material with these keys may enter it (another verse), or its entries be referenced from
    another boundary, by ``uses`` ratified sets that cite the receipt; prints its id. The
    receipt records the verse it adopts into (BOUNDARY's) and ``--material-verse`` where given.

    Example: kg-context adopt team-7 --key pricing --reason "vetted by legal" --uses 2
    """
    with connect() as engine:
        existing(engine, boundary)
        receipt_id = engine.adopt(
            boundary,
            operator_id=operator or operator_id(),
            reason=reason,
            keys=key,
            uses=uses,
            valid_until_seq=valid_until_seq,
            material_verse=material_verse,
        )
    data = {
        "receipt_id": receipt_id,
        "boundary_id": boundary,
        "keys": key,
        "uses": uses,
        "material_verse": material_verse,
    }
    emit(data, as_json, lambda: _say(f"adoption receipt {receipt_id}"))
