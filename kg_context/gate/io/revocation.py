"""Revocation: an operator's act that withdraws what the record granted, with a receipt (I/O):
a writer's registration, an adoption receipt, an entry's foundational mark, or an API
credential, each one ``:RevocationReceipt`` written under the boundary's lock.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from enum import StrEnum

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import InputValidationError, OperatorActRefused, StateError
from kg_context.gate.io.store import now_iso
from kg_context.gate.io.transaction_io import lock_boundary
from kg_context.gate.pure.authority import operator_problem
from kg_context.gate.pure.batch import record_id
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.rows import receipt_props
from kg_context.vocabulary import ReasonCode, ReceiptKind

__all__ = [
    "Revocation",
    "RevocationSubject",
    "credential_digest",
    "credential_revoked",
    "revocations",
    "revoke",
]

_DIGEST = re.compile(r"^[0-9a-f]{64}$")


class RevocationSubject(StrEnum):
    WRITER = "writer"
    ADOPTION = "adoption"
    FOUNDATIONAL = "foundational"
    CREDENTIAL = "credential"


@dataclass(frozen=True, slots=True)
class Revocation:
    """One revocation receipt: what it revokes, by whom, when, at which seq, and why."""

    id: str
    boundary_id: str
    subject: RevocationSubject
    subject_id: str
    operator_id: str
    reason: str
    at: str
    seq: int
    constitution_version: str

    @classmethod
    def of(cls, row: Record) -> Revocation:
        return cls(
            id=row["id"],
            boundary_id=row["boundary_id"],
            subject=RevocationSubject(row["subject_kind"]),
            subject_id=row["subject_id"],
            operator_id=row["operator_id"],
            reason=row["reason"],
            at=row["at"],
            seq=int(row["seq"]),
            constitution_version=row["constitution_version"],
        )

    def as_dict(self) -> dict[str, object]:
        """The receipt as JSON-ready data (the one form the CLI's ``--json`` and the HTTP body
        carry)."""
        return {**asdict(self), "subject": self.subject.value}


def credential_digest(token: str) -> str:
    """The sha256 a credential is named by (the API's token table keys tokens the same way)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _subject(subject: RevocationSubject | str) -> RevocationSubject:
    try:
        return RevocationSubject(subject)
    except ValueError:
        choices = ", ".join(s.value for s in RevocationSubject)
        raise InputValidationError(
            f"a revocation is of one of {choices}, not {subject!r}"
        ) from None


def revoke(
    executor: QueryExecutor,
    constitution_for: Callable[[str], Constitution],
    boundary_id: str,
    subject: RevocationSubject | str,
    subject_id: str,
    *,
    operator_id: str,
    reason: str,
) -> Revocation:
    """Revoke ``subject_id`` (a writer id, an adoption receipt id, an entry id, or a credential's
    sha256) in ``boundary_id``: the operator's act, checked and written under the boundary's
    lock. Refusals: ``OperatorActRefused`` (not an operator; a writer the constitution names),
    ``StateError`` (nothing to revoke, or revoked already), ``InputValidationError``."""
    kind = _subject(subject)
    if not operator_id or not reason.strip() or not subject_id or len(subject_id) > 512:
        raise InputValidationError(
            "a revocation names its operator, its subject and a reason", boundary_id=boundary_id
        )
    if kind is RevocationSubject.CREDENTIAL and not _DIGEST.match(subject_id):
        raise InputValidationError(
            "a credential is named by its sha256 (64 lowercase hex digits)",
            boundary_id=boundary_id,
            writer_id=operator_id,
        )
    receipt_id = record_id(boundary_id, "revocation", uuid.uuid4().hex[:16])
    found: list[Revocation] = []

    def work(tx: Transaction) -> None:
        found.clear()
        boundary = lock_boundary(tx, boundary_id)
        constitution = constitution_for(boundary.constitution_version)
        _require_operator(constitution, operator_id, kind, subject_id, boundary_id)
        state = tx.run(
            "revocation/subject",
            boundary_id=boundary_id,
            subject_kind=kind.value,
            subject_id=subject_id,
        )[0]
        _check_subject(kind, subject_id, boundary_id, constitution, state)
        receipt = receipt_props(
            receipt_id,
            ReceiptKind.REVOCATION,
            at=now_iso(),
            boundary_id=boundary_id,
            set_id=None,
            constitution_version=boundary.constitution_version,
            subject_kind=kind.value,
            subject_id=subject_id,
            operator_id=operator_id,
            reason=reason,
            seq=boundary.seq,
            gateway_id=f"operator:{operator_id}",
            decision="revoke",
        )
        tx.run("revocation/write", boundary_id=boundary_id, receipt=receipt)
        found.append(
            Revocation(
                receipt_id,
                boundary_id,
                kind,
                subject_id,
                operator_id,
                reason,
                str(receipt["at"]),
                boundary.seq,
                boundary.constitution_version,
            )
        )

    executor.write_tx(work)
    return found[0]


def _require_operator(
    constitution: Constitution,
    operator_id: str,
    kind: RevocationSubject,
    subject_id: str,
    boundary_id: str,
) -> None:
    problem = operator_problem(constitution, operator_id)
    if problem is not None:
        raise OperatorActRefused(
            f"revoking {kind.value} {subject_id} in boundary {boundary_id} refused: {problem}",
            code=ReasonCode.NOT_OPERATOR.value,
            fix="ask an operator the boundary's constitution names to revoke it",
            boundary_id=boundary_id,
            writer_id=operator_id,
            entry_id=subject_id if kind is RevocationSubject.FOUNDATIONAL else None,
        )


def _check_subject(
    kind: RevocationSubject,
    subject_id: str,
    boundary_id: str,
    constitution: Constitution,
    state: Record,
) -> None:
    if kind is RevocationSubject.WRITER and constitution.authority.named_kinds(subject_id):
        raise OperatorActRefused(
            f"writer {subject_id} is named by constitution {constitution.version} of boundary "
            f"{boundary_id}; its registration cannot be revoked",
            code=ReasonCode.NOT_AUTHORIZED.value,
            fix="take the id out of the constitution's [authority] by a constitution change",
            boundary_id=boundary_id,
            writer_id=subject_id,
        )
    if kind is RevocationSubject.ADOPTION and not state["adoption_found"]:
        raise StateError(
            f"no adoption receipt {subject_id} of boundary {boundary_id}", boundary_id=boundary_id
        )
    if kind is RevocationSubject.FOUNDATIONAL:
        if not state["entry_found"]:
            raise StateError(
                f"no entry {subject_id} in boundary {boundary_id}",
                boundary_id=boundary_id,
                entry_id=subject_id,
            )
        if not state["foundational"]:
            raise StateError(
                f"entry {subject_id} of boundary {boundary_id} is not foundational",
                boundary_id=boundary_id,
                entry_id=subject_id,
            )
    elif state["earlier"]:
        raise StateError(
            f"{kind.value} {subject_id} is revoked already in boundary {boundary_id} "
            f"({state['earlier'][0]})",
            boundary_id=boundary_id,
            writer_id=subject_id if kind is RevocationSubject.WRITER else None,
        )


def revocations(
    executor: QueryExecutor, boundary_id: str, subject: RevocationSubject | str | None = None
) -> list[Revocation]:
    """The boundary's revocations, oldest first (of one subject kind, where given)."""
    kind = None if subject is None else _subject(subject).value
    rows = executor.read("revocation/list", boundary_id=boundary_id, subject_kind=kind)
    return [Revocation.of(row) for row in rows]


def credential_revoked(executor: QueryExecutor, boundary_id: str, digest: str) -> bool:
    """Whether an operator of ``boundary_id`` revoked the credential with this sha256."""
    rows = executor.read("revocation/credential_revoked", boundary_id=boundary_id, digest=digest)
    return bool(rows and rows[0]["revoked"])
