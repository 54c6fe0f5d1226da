"""``kg-context revoke``: an operator revokes, in one boundary, a writer's registration, an
adoption receipt, a foundational mark or an API credential; each is a revocation receipt with
who, when, what and why (only an operator the boundary's constitution names; else exit 8)."""

from __future__ import annotations

from typing import Annotated

import typer

from kg_context.cli.common import JsonOption, connect, emit, existing, operator_id, out, table
from kg_context.errors import InputValidationError
from kg_context.gate.io.revocation import RevocationSubject, credential_digest

__all__ = ["revoke_app"]

revoke_app = typer.Typer(
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="Revoke a writer, an adoption receipt, a foundational mark or a credential.",
)

ReasonOption = Annotated[str, typer.Option(help="Why: recorded on the revocation receipt.")]
OperatorOption = Annotated[
    str | None, typer.Option(help="Operator id (default KG_CONTEXT_OPERATOR, then operator).")
]


def _revoke(
    boundary: str,
    subject: RevocationSubject,
    subject_id: str,
    reason: str,
    operator: str | None,
    as_json: bool,
) -> None:
    with connect() as engine:
        done = existing(engine, boundary).revoke(
            subject, subject_id, operator_id=operator or operator_id(), reason=reason
        )
    emit(
        done.as_dict(),
        as_json,
        lambda: out.print(
            f"revoked {done.subject} {done.subject_id} in {done.boundary_id} at seq {done.seq}: "
            f"receipt {done.id}",
            markup=False,
            highlight=False,
        ),
    )


@revoke_app.command("writer")
def revoke_writer(
    boundary: str,
    writer: str,
    reason: ReasonOption,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke WRITER's registration in BOUNDARY: its later sets are rejected WRITER_REVOKED.

    Example: kg-context revoke writer team-7 planner-b --reason "leaked key"
    """
    _revoke(boundary, RevocationSubject.WRITER, writer, reason, operator, as_json)


@revoke_app.command("adoption")
def revoke_adoption(
    boundary: str,
    receipt: str,
    reason: ReasonOption,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke one of BOUNDARY's adoption receipts: later sets citing it are rejected.

    Example: kg-context revoke adoption team-7 team-7/adoption/3f2a --reason "vetting withdrawn"
    """
    _revoke(boundary, RevocationSubject.ADOPTION, receipt, reason, operator, as_json)


@revoke_app.command("foundational")
def revoke_foundational(
    boundary: str,
    entry: str,
    reason: ReasonOption,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """End ENTRY's foundational mark: the leases into it run on their own clocks again.

    Example: kg-context revoke foundational team-7 db-schema --reason "no longer load-bearing"
    """
    _revoke(boundary, RevocationSubject.FOUNDATIONAL, entry, reason, operator, as_json)


@revoke_app.command("credential")
def revoke_credential(
    boundary: str,
    reason: ReasonOption,
    token_sha256: Annotated[
        str | None, typer.Option(help="The credential's sha256 (as in the token file).")
    ] = None,
    token_env: Annotated[
        str | None, typer.Option(help="Read the token itself from this environment variable.")
    ] = None,
    operator: OperatorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke an API (and MCP) credential in BOUNDARY: requests with it there get 403.

    Example: kg-context revoke credential team-7 --token-env LEAKED_TOKEN --reason "leaked"
    """
    import os

    if (token_sha256 is None) == (token_env is None):
        raise InputValidationError("give exactly one of --token-sha256 and --token-env")
    if token_env is not None:
        token = os.environ.get(token_env)
        if not token:
            raise InputValidationError(f"the environment variable {token_env} is not set")
        token_sha256 = credential_digest(token)
    assert token_sha256 is not None
    _revoke(boundary, RevocationSubject.CREDENTIAL, token_sha256, reason, operator, as_json)


@revoke_app.command("list")
def revoke_list(boundary: str, as_json: JsonOption = False) -> None:
    """BOUNDARY's revocations, oldest first: who revoked what, when, at which seq, and why.

    Example: kg-context revoke list team-7
    """
    with connect() as engine:
        rows = [r.as_dict() for r in existing(engine, boundary).revocations()]
    columns = ["seq", "subject", "subject_id", "operator_id", "at", "reason"]
    emit(rows, as_json, lambda: out.print(table(rows, columns, title="revocations")))
