"""``kg-context audit``: the analysts' Cypher audits from the command line.

One command per file of ``cypher/audits/`` (``why_resident.cypher`` is ``audit why-resident``),
whose help is the question the file answers; ``audit list`` shows them all, ``audit all`` runs
every must-be-empty one (the invariants) and exits 1 when any returns a row; ``audit
false-retirements`` is the combined error-observability report, ``audit rates`` its rates.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from kg_context.cli.common import ExitCode, JsonOption, connect, emit, existing, out, table
from kg_context.errors import InputValidationError
from kg_context.record.audits import AuditFile, AuditResult, audit_library

__all__ = ["audit_app"]

audit_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="Cypher audits (cypher/audits/): reports and invariants, as analysts run them.",
)

OptionalBoundary = Annotated[
    str | None, typer.Option("--boundary", "-b", help="The boundary ($boundary_id).")
]
ParamOption = Annotated[
    list[str] | None,
    typer.Option(
        "--param", "-p", help="NAME=VALUE for a $parameter (VALUE read as JSON if it parses)."
    ),
]


def _say(text: str) -> None:
    out.print(text, markup=False)


def _params(pairs: list[str] | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        if not sep or not name.isidentifier():
            raise InputValidationError(f"--param takes NAME=VALUE, not {pair!r}")
        try:
            found[name] = json.loads(raw)
        except json.JSONDecodeError:
            found[name] = raw
    return found


def _result_dict(result: AuditResult) -> dict[str, Any]:
    return {
        "audit": result.audit.name,
        "question": result.audit.question,
        "must_be_empty": result.audit.must_be_empty,
        "clean": result.clean,
        "rows": result.rows,
    }


@audit_app.command("list")
def audit_list(as_json: JsonOption = False) -> None:
    """Every audit: its name, whether it must be empty, its parameters and its question.

    Example: kg-context audit list --json
    """
    audits = sorted(audit_library().values(), key=lambda a: a.name)
    data = [
        {
            "audit": a.name,
            "must_be_empty": a.must_be_empty,
            "parameters": [p.name for p in a.parameters],
            "question": a.question,
        }
        for a in audits
    ]
    emit(data, as_json, lambda: out.print(table(data, title="cypher/audits/")))


@audit_app.command("all")
def audit_all(boundary: OptionalBoundary = None, as_json: JsonOption = False) -> None:
    """Run every must-be-empty audit (the invariants); exit 1 when any returns a row.

    Without --boundary they run over the whole database.

    Example: kg-context audit all -b team-7
    """
    with connect() as engine:
        if boundary is not None:
            existing(engine, boundary)
        results = engine.invariants(boundary)
    data = {
        "boundary_id": boundary,
        "clean": all(r.clean for r in results),
        "audits": [_result_dict(r) for r in results],
    }

    def human() -> None:
        rows = [
            {"audit": r.audit.name, "rows": len(r.rows), "verdict": "ok" if r.clean else "FAILED"}
            for r in results
        ]
        out.print(table(rows, title=f"invariants of {boundary or 'the whole database'}"))
        for r in results:
            if not r.clean:
                out.print(table(r.rows[:20], title=f"{r.audit.name}: {r.audit.question}"))

    emit(data, as_json, human)
    if not data["clean"]:
        raise typer.Exit(ExitCode.REFUSED)


def _command(audit: AuditFile) -> Any:
    def run(
        boundary: OptionalBoundary = None,
        param: ParamOption = None,
        as_json: JsonOption = False,
    ) -> None:
        with connect() as engine:
            result = engine.run_audit(audit.name, boundary_id=boundary, params=_params(param))
        if as_json:
            emit(_result_dict(result), True, lambda: None)
        elif result.rows:
            out.print(table(result.rows, title=audit.question))
        else:
            _say(f"{audit.name}: no rows")
        if not result.clean:
            raise typer.Exit(ExitCode.REFUSED)

    params = " ".join(
        "-b B" if p.name == "boundary_id" else f"-p {p.name}=..."
        for p in audit.parameters
        if p.name
        not in {
            "root_classes",
            "successors",
            "default_lease",
            "recall_max_entries",
            "recall_max_depth",
        }
    )
    verdict = "Exits 1 when it returns a row (an invariant). " if audit.must_be_empty else ""
    run.__doc__ = (
        f"{audit.question}\n\n{verdict}File: cypher/audits/{audit.name}.cypher\n\n"
        f"Example: kg-context audit {audit.name.replace('_', '-')} {params}".rstrip()
    )
    return run


@audit_app.command("false-retirements")
def audit_false_retirements(
    boundary: Annotated[str, typer.Option("--boundary", "-b", help="The boundary id.")],
    as_json: JsonOption = False,
) -> None:
    """Candidate false retirements (retired, later shown needed), resurrections and
    retirements without a recorded justification, in one report.

    Example: kg-context audit false-retirements -b team-7
    """
    with connect() as engine:
        report = existing(engine, boundary).audit()
    if as_json:
        emit(
            {
                "counts": report.counts(),
                "false_retirements": [vars_of(f) for f in report.false_retirements],
                "resurrections": [vars_of(r) for r in report.resurrections],
                "unjustified_retirements": report.unjustified_retirements,
            },
            True,
            lambda: None,
        )
        return
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


@audit_app.command("rates")
def audit_rates(
    boundary: Annotated[str, typer.Option("--boundary", "-b", help="The boundary id.")],
    as_json: JsonOption = False,
) -> None:
    """Error rates of a boundary: false retirements, false supersessions (superseded by an entry
    later invalidated), resurrections, at-risk entries revalidated or abandoned, and time from a
    mistake to its detection in sets. A report (exit 0); a rate with nothing to count is n/a.

    Example: kg-context audit rates -b team-7
    """
    from kg_context.record.observability import DetectionKind

    with connect() as engine:
        found = existing(engine, boundary).rates()
    if as_json:
        emit(found.as_dict(), True, lambda: None)
        return
    _say(
        f"false-retirement rate {found.false_retirement.render()}: retirements later shown "
        "needed / retirements"
    )
    _say(
        f"false-supersession rate {found.false_supersession.render()}: superseded by an entry "
        "later invalidated / executed supersessions"
    )
    _say(
        f"resurrection rate {found.resurrection.render()}: brought back (recall, dependency, "
        "ungoverned) / left standing"
    )
    _say(
        f"at risk: revalidated {found.at_risk_revalidated.render()}, abandoned "
        f"{found.at_risk_abandoned.render()}, still at risk {found.at_risk_open.render()}"
    )
    by_kind = "; ".join(f"{k.value} {found.detection(k).render()}" for k in DetectionKind)
    _say(f"time to detection in sets: all {found.detection().render()}; {by_kind}")
    for d in found.detections:
        _say(
            f"    {d.kind.value} {d.entry_id}: made at seq {d.mistake_seq}, detected at seq "
            f"{d.detected_seq} by set {d.detected_by_set} ({d.distance} sets)"
        )
    for c in found.supersession_candidates:
        _say(
            f"candidate {c.entry_id} ({c.key!r}) superseded at seq {c.superseded_at_seq} by "
            f"{c.superseded_by}, invalidated at seq {c.invalidated_at_seq}"
        )


@audit_app.command("verify")
def audit_verify(
    boundary: Annotated[str, typer.Argument(help="The boundary id.")],
    as_json: JsonOption = False,
) -> None:
    """Recompute the boundary's tamper-evident ledger from the graph and name the first set
    whose record differs (and what differs); exit 1 when anything does. Sets decided before
    the ledger existed are reported as unchained, not as failures.

    Example: kg-context audit verify team-7
    """
    with connect() as engine:
        result = existing(engine, boundary).verify_ledger()
    data = {
        "boundary_id": result.boundary_id,
        "ok": result.ok,
        "records": result.records,
        "sets": result.sets,
        "unchained_sets": result.unchained_sets,
        "chained_since_seq": result.chained_since_seq,
        "head": result.head,
        "findings": [vars_of(f) for f in result.findings],
    }

    def human() -> None:
        _say(
            f"{boundary}: {result.records} records over {result.sets} sets, head {result.head}"
            + (f"; {result.unchained_sets} sets unchained (decided before seq "
               f"{result.chained_since_seq})" if result.unchained_sets else "")
        )  # fmt: skip
        first = result.first
        if first is None:
            _say("ledger verified: every record matches the graph")
            return
        _say(f"FIRST DIFFERENCE: set {first.set_id} at position {first.ledger_pos}: {first.detail}")
        for f in result.findings:
            _say(f"  {f.problem.value}: set {f.set_id} pos {f.ledger_pos}: {f.detail}")

    emit(data, as_json, human)
    if not result.ok:
        raise typer.Exit(ExitCode.REFUSED)


def vars_of(item: object) -> dict[str, Any]:
    """A slotted dataclass as a dict."""
    from dataclasses import asdict, is_dataclass

    if is_dataclass(item) and not isinstance(item, type):
        return asdict(item)
    raise TypeError(f"{type(item).__name__} is not a dataclass")


_TAKEN = {"list", "all", "false-retirements", "rates", "verify"}
for _audit in sorted(audit_library().values(), key=lambda a: a.name):
    _name = _audit.name.replace("_", "-")
    if _name not in _TAKEN:
        audit_app.command(_name)(_command(_audit))
