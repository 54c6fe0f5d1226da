"""Acts reserved to the operators a boundary's constitution names (I/O): issuing an adoption
receipt here, and the authority check that constitution changes and halt resolutions run before
anything is written. An id the constitution does not name gets an ``AuthorizationError`` and the
record is unchanged; the check reads the boundary's constitution under its lock when it writes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from kg_context.db.executor import QueryExecutor, Transaction
from kg_context.errors import AuthorizationError, InputValidationError, StateError
from kg_context.gate.io.store import now_iso
from kg_context.gate.io.transaction_io import lock_boundary
from kg_context.gate.pure.authority import operator_problem
from kg_context.gate.pure.batch import record_id
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.rows import receipt_props
from kg_context.vocabulary import ReasonCode, ReceiptKind, Verse

__all__ = ["issue_adoption", "require_operator", "set_czar_cadence"]

ConstitutionFor = Callable[[str], Constitution]


def require_operator(
    executor: QueryExecutor,
    constitution_for: ConstitutionFor,
    boundary_id: str,
    operator_id: str,
    act: str,
    *,
    halt_id: str | None = None,
) -> None:
    """An ``AuthorizationError`` unless ``operator_id`` is an operator of the boundary's current
    constitution (a read; acts that write check again under the lock); ``halt_id`` names the
    halt the act resolves, for the error's context."""
    rows = executor.read("boundary/get", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id, halt_id=halt_id)
    constitution = constitution_for(str(rows[0]["constitution_version"]))
    _check(constitution, operator_id, act, boundary_id, halt_id=halt_id)


def _check(
    constitution: Constitution,
    operator_id: str,
    act: str,
    boundary_id: str,
    *,
    halt_id: str | None = None,
) -> None:
    problem = operator_problem(constitution, operator_id)
    if problem is not None:
        raise AuthorizationError(
            f"{act} in boundary {boundary_id} refused: {problem}",
            boundary_id=boundary_id,
            reason_code=ReasonCode.NOT_OPERATOR.value,
            halt_id=halt_id,
            writer_id=operator_id,
        )


def issue_adoption(
    executor: QueryExecutor,
    constitution_for: ConstitutionFor,
    boundary_id: str,
    *,
    operator_id: str,
    reason: str,
    keys: Sequence[str],
    uses: int = 1,
    valid_until_seq: int | None = None,
    material_verse: Verse | str | None = None,
) -> str:
    """Record an adoption receipt of ``boundary_id``: material with these ``keys`` (of
    ``material_verse``, where stated) may be admitted ``uses`` times (a use is one ratified set),
    while the boundary's seq is at most ``valid_until_seq``. The receipt carries the verse it
    adopts into: the boundary's, read from the graph. Returns the receipt id."""
    if not operator_id or not reason.strip():
        raise InputValidationError(
            "an adoption names its operator and gives a reason", boundary_id=boundary_id
        )
    keys = list(dict.fromkeys(keys))
    if not keys or any(not k or len(k) > 512 for k in keys):
        raise InputValidationError(
            "an adoption names at least one key (each 1-512 characters)",
            boundary_id=boundary_id,
            writer_id=operator_id,
        )
    if uses < 1:
        raise InputValidationError(
            f"an adoption allows at least one use, not uses={uses}",
            boundary_id=boundary_id,
            writer_id=operator_id,
        )
    if valid_until_seq is not None and valid_until_seq < 0:
        raise InputValidationError(
            "valid_until_seq is a seq of the boundary (>= 0)",
            boundary_id=boundary_id,
            writer_id=operator_id,
        )
    verse = _verse(material_verse)
    receipt_id = record_id(boundary_id, "adoption", uuid.uuid4().hex[:16])

    def work(tx: Transaction) -> None:
        boundary = lock_boundary(tx, boundary_id)
        _check(constitution_for(boundary.constitution_version), operator_id, "adopt", boundary_id)
        receipt = receipt_props(
            receipt_id,
            ReceiptKind.ADOPTION,
            at=now_iso(),
            boundary_id=boundary_id,
            set_id=None,
            constitution_version=boundary.constitution_version,
            operator_id=operator_id,
            reason=reason,
            keys=keys,
            uses=uses,
            valid_until_seq=valid_until_seq,
            material_verse=verse,
        )
        tx.run("gate/write_adoption", boundary_id=boundary_id, receipt=receipt)

    executor.write_tx(work)
    return receipt_id


def _verse(material_verse: Verse | str | None) -> str | None:
    if material_verse is None:
        return None
    try:
        return Verse(material_verse).value
    except ValueError:
        choices = ", ".join(v.value for v in Verse)
        raise InputValidationError(
            f"a material verse is one of {choices}, not {material_verse!r}"
        ) from None


def set_czar_cadence(
    executor: QueryExecutor,
    constitution_for: ConstitutionFor,
    boundary_id: str,
    every: int,
    *,
    operator_id: str,
    reason: str,
) -> int:
    """Change the czar's cadence ``boundary_id`` keeps (``every`` sets; 0: only on
    demand), whichever engine commits: only an operator its constitution names (else
    ``AuthorizationError``), kept on the boundary with who and why. Returns the cadence."""
    if every < 0 or not reason:
        raise InputValidationError(
            "a czar cadence is a number of sets >= 0, with a reason",
            boundary_id=boundary_id,
            writer_id=operator_id,
        )
    require_operator(executor, constitution_for, boundary_id, operator_id, "czar cadence change")
    rows = executor.write(
        "boundary/set_czar_cadence",
        boundary_id=boundary_id,
        czar_every_commits=every,
        operator_id=operator_id,
        reason=reason,
    )
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    return int(rows[0]["czar_every_commits"])
