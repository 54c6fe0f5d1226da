"""The status machine of entries in the record (pure).

    live | revalidated  -> superseded | retired | challenged | invalidated | at_risk
    challenged          -> invalidated | revalidated | at_risk
    at_risk             -> revalidated | invalidated | retired
    superseded          -> retired | at_risk | invalidated
    retired             -> at_risk | invalidated
    invalidated, explored: final

Residency (whether an entry is in the window) is separate: a transition may flip it too.
"""

from __future__ import annotations

from kg_context.vocabulary import EntryStatus

__all__ = ["NEXT_STATUSES", "is_legal", "may_become"]

S = EntryStatus
_FROM_LIVE = frozenset({S.SUPERSEDED, S.RETIRED, S.CHALLENGED, S.INVALIDATED, S.AT_RISK})

NEXT_STATUSES: dict[EntryStatus, frozenset[EntryStatus]] = {
    S.LIVE: _FROM_LIVE,
    S.REVALIDATED: _FROM_LIVE,
    S.CHALLENGED: frozenset({S.INVALIDATED, S.REVALIDATED, S.AT_RISK}),
    S.AT_RISK: frozenset({S.REVALIDATED, S.INVALIDATED, S.RETIRED}),
    S.SUPERSEDED: frozenset({S.RETIRED, S.AT_RISK, S.INVALIDATED}),
    S.RETIRED: frozenset({S.AT_RISK, S.INVALIDATED}),
    S.INVALIDATED: frozenset(),
    S.EXPLORED: frozenset(),
}


def is_legal(current: str, target: EntryStatus) -> bool:
    """Whether ``current -> target`` is a transition the record allows."""
    try:
        return target in NEXT_STATUSES[EntryStatus(current)]
    except ValueError:
        return False


def may_become(target: EntryStatus) -> frozenset[EntryStatus]:
    """Every status the machine allows to move to ``target`` (e.g. what may go at_risk)."""
    return frozenset(s for s, nxt in NEXT_STATUSES.items() if target in nxt)
