"""The cycle's recall of non-standing entries: a superseded, retired,
invalidated or explored entry that an admitted ``query_memory`` names by id reaches the
workspace only as a recall copy the gate admitted (``RecallGate.admit``, one recall set and
receipt per asking subscriber and broadcast); a copy still held is read again instead."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kg_context.cycle.proposals import GateSink
from kg_context.cycle.source import EntrySource, RecallGate

__all__ = ["RecallOutcome", "admit_non_standing", "as_recaller"]


@dataclass(frozen=True, slots=True)
class RecallOutcome:
    """One recall admission the cycle asked the gate for: non-standing entries a subscriber
    named, the gate's outcome (``None``: this cycle has no recall gate, nothing was admitted),
    and the copies it admitted (original id -> copy id)."""

    subscriber: str
    entry_ids: tuple[str, ...]
    outcome: str | None
    set_id: str | None
    receipt_id: str | None
    copies: tuple[tuple[str, str], ...]


def admit_non_standing(
    source: EntrySource,
    recaller: RecallGate | None,
    ids: Sequence[str],
    asked_by: Mapping[str, tuple[float, str]],
) -> tuple[dict[str, str], tuple[RecallOutcome, ...]]:
    """Copy id -> original id for the non-standing entries named by id: a copy still held,
    or one the gate admits now (one recall set per asking subscriber)."""
    copies: dict[str, str] = {}
    wanted: dict[str, list[str]] = {}
    for row in source.non_standing(ids):
        if row.copy_id is not None:
            copies[row.copy_id] = row.id
        else:
            wanted.setdefault(asked_by[row.id][1], []).append(row.id)
    outcomes: list[RecallOutcome] = []
    for subscriber, originals in sorted(wanted.items()):
        if recaller is None:
            outcomes.append(RecallOutcome(subscriber, tuple(originals), None, None, None, ()))
            continue
        admission = recaller.admit(originals, writer_id=subscriber)
        decision = admission.decision
        admitted = decision.outcome == "commit"
        named = {o: c for o, c in admission.copies.items() if o in originals}
        if admitted:
            copies.update({c: o for o, c in named.items()})
        outcomes.append(
            RecallOutcome(
                subscriber,
                tuple(originals),
                str(decision.outcome),
                decision.set_id,
                decision.receipt_id,
                tuple(sorted(named.items())) if admitted else (),
            )
        )
    return copies, tuple(outcomes)


def as_recaller(gate: GateSink | None) -> RecallGate | None:
    """The gate as a recall gate when it can admit recall copies (a boundary handle)."""
    return gate if isinstance(gate, RecallGate) else None
