"""Verse adoption (pure predicates): material of a verse the constitution guards
(``[verse] adoption_required_for``) enters a boundary of another verse only by citing an
operator's adoption receipt of this boundary (``VERSE_ADOPTION`` when none is cited or it is not
this boundary's), and only as far as the receipt reaches: the entry's key among its keys, its
verse the receipt's material verse (where the operator stated one), a use left, not expired
(``ADOPTION_SCOPE``). A committed set counts one use of each receipt it used
(``receipts_used``; the store writes ``(:Set)-[:USED_ADOPTION]->(:Receipt)``). Receipts are
never changed; their uses are counted from the record.
"""

from __future__ import annotations

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import EntryProposal, Proposal
from kg_context.gate.pure.snapshot import AdoptionState, Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, halt
from kg_context.vocabulary import ReasonCode

__all__ = ["adoption_scope", "receipts_used", "verse_adoption"]


def _needs_adoption(entry: EntryProposal, c: Constitution, snapshot: Snapshot) -> bool:
    guarded = {v.value for v in c.verse.adoption_required_for}
    return entry.verse.value != snapshot.boundary.verse and entry.verse.value in guarded


def _own_receipt(proposal: Proposal, snapshot: Snapshot) -> AdoptionState | None:
    found = snapshot.adoptions.get(proposal.adoption_receipt_id or "")
    return found if found is not None and found.boundary_id == snapshot.boundary.id else None


def _remedy(boundary_id: str, key: str) -> str:
    return (
        f"an operator of {boundary_id} issues an adoption receipt for key {key!r}, with a "
        "reason, and the writer cites it as adoption_receipt_id"
    )


def verse_adoption(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    for proposal, entry_id, entry in view.entries:
        if not _needs_adoption(entry, c, snapshot):
            continue
        if _own_receipt(proposal, snapshot) is None:
            return halt(
                ReasonCode.VERSE_ADOPTION,
                f"entry {entry_id} is {entry.verse.value} material entering a "
                f"{snapshot.boundary.verse} boundary without an adoption receipt of boundary "
                f"{snapshot.boundary.id}",
                _remedy(snapshot.boundary.id, entry.key),
            )
    return None


def adoption_scope(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    at_seq = snapshot.boundary.seq + 1  # the seq this set would commit at
    for proposal, entry_id, entry in view.entries:
        receipt = _own_receipt(proposal, snapshot)
        if receipt is None or not _needs_adoption(entry, c, snapshot):
            continue
        problem = receipt.problem(entry.key, at_seq, entry.verse.value)
        if problem is not None:
            return halt(
                ReasonCode.ADOPTION_SCOPE,
                f"entry {entry_id} ({entry.verse.value}, key {entry.key!r}) cites adoption "
                f"receipt {receipt.id}, which {problem}",
                _remedy(snapshot.boundary.id, entry.key),
            )
    return None


def receipts_used(view: SetView, c: Constitution, snapshot: Snapshot) -> list[str]:
    """The adoption receipts a committing set uses (one use each): its own boundary's receipts
    that admit its guarded material, and other boundaries' receipts its cross-boundary
    references cite. A receipt that does not admit what it is cited for (an operator approved
    the ADOPTION_SCOPE halt instead) is not used: the approval is the authority then."""
    used: set[str] = set()
    for proposal, _entry_id, entry in view.entries:
        receipt = snapshot.adoptions.get(proposal.adoption_receipt_id or "")
        if receipt is None:
            continue
        if receipt.boundary_id == snapshot.boundary.id:
            # plan_commit advanced the seq: it is the committing set's own
            at_seq = snapshot.boundary.seq
            if (
                _needs_adoption(entry, c, snapshot)
                and receipt.problem(entry.key, at_seq, entry.verse.value) is None
            ):
                used.add(receipt.id)
        elif any(ref.boundary_id == receipt.boundary_id for _, ref in entry.foreign_references()):
            used.add(receipt.id)  # CROSS_BOUNDARY admitted it (a rejection is never approved)
    return sorted(used)
