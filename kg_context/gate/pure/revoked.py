"""The gate's revocation predicate (pure): a set is rejected when a proposal of it is by a writer
whose registration an operator revoked (``WRITER_REVOKED``) or cites an adoption receipt an
operator revoked (``ADOPTION_REVOKED``); decided from the revocation receipts the snapshot read
from the graph (``gate/io/revocation.py`` writes them)."""

from __future__ import annotations

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, reject
from kg_context.vocabulary import ReasonCode

__all__ = ["revoked_parties"]


def revoked_parties(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """No proposal by a writer whose registration an operator revoked, and none citing an
    adoption receipt an operator revoked (decided from the revocation receipts in the graph)."""
    for p in view.closed.proposals:
        writer = snapshot.revoked_writers.get(p.writer_id)
        if writer is not None:
            return reject(
                ReasonCode.WRITER_REVOKED,
                f"writer {p.writer_id} was revoked in boundary {writer.boundary_id} by operator "
                f"{writer.operator_id} at seq {writer.seq} ({writer.receipt_id})",
                "the revoked writer's work is refused for good: have a writer in good standing "
                "propose it",
            )
        receipt = snapshot.revoked_adoptions.get(p.adoption_receipt_id or "")
        if receipt is not None:
            return reject(
                ReasonCode.ADOPTION_REVOKED,
                f"adoption receipt {p.adoption_receipt_id} was revoked by operator "
                f"{receipt.operator_id} of boundary {receipt.boundary_id} at its seq "
                f"{receipt.seq} ({receipt.receipt_id})",
                "ask an operator of that boundary for a new adoption receipt and cite it",
            )
    return None
