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
from kg_context.gate.authority import operator_problem
from kg_context.gate.batch import record_id
from kg_context.gate.constitution import Constitution
from kg_context.gate.store import now_iso
from kg_context.gate.transaction_io import lock_boundary

__all__ = ["issue_adoption", "require_operator"]

ConstitutionFor = Callable[[str], Constitution]


def require_operator(
    executor: QueryExecutor,
    constitution_for: ConstitutionFor,
    boundary_id: str,
    operator_id: str,
    act: str,
) -> None:
    """An ``AuthorizationError`` unless ``operator_id`` is an operator of the boundary's current
    constitution (a read; acts that write check again under the lock)."""
    rows = executor.read("boundary/get", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}")
    _check(constitution_for(str(rows[0]["constitution_version"])), operator_id, act, boundary_id)


def _check(constitution: Constitution, operator_id: str, act: str, boundary_id: str) -> None:
    problem = operator_problem(constitution, operator_id)
    if problem is not None:
        raise AuthorizationError(f"{act} in boundary {boundary_id} refused: {problem}")


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
) -> str:
    """Record an adoption receipt of ``boundary_id``: material with these ``keys`` may be
    admitted ``uses`` times (a use is one ratified set), while the boundary's seq is at most
    ``valid_until_seq``. Returns the receipt id."""
    if not operator_id or not reason.strip():
        raise InputValidationError("an adoption names its operator and gives a reason")
    keys = list(dict.fromkeys(keys))
    if not keys or any(not k or len(k) > 512 for k in keys):
        raise InputValidationError("an adoption names at least one key (each 1-512 characters)")
    if uses < 1:
        raise InputValidationError(f"an adoption allows at least one use, not uses={uses}")
    if valid_until_seq is not None and valid_until_seq < 0:
        raise InputValidationError("valid_until_seq is a seq of the boundary (>= 0)")
    receipt_id = record_id(boundary_id, "adoption", uuid.uuid4().hex[:16])

    def work(tx: Transaction) -> None:
        boundary = lock_boundary(tx, boundary_id)
        _check(constitution_for(boundary.constitution_version), operator_id, "adopt", boundary_id)
        tx.run(
            "gate/write_adoption",
            boundary_id=boundary_id,
            receipt_id=receipt_id,
            now=now_iso(),
            operator_id=operator_id,
            reason=reason,
            keys=keys,
            uses=uses,
            valid_until_seq=valid_until_seq,
        )

    executor.write_tx(work)
    return receipt_id
