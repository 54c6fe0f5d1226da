"""The czar never empties a window silently: the guard on a compaction plan.

``guard_window``: a plan that would empty a non-empty window keeps it (drops its reachability
retirements) and records a warning; ``keep_hard_held`` keeps in what a staying entry holds by a
hard edge.
"""

from __future__ import annotations

from collections.abc import Mapping

from kg_context.db.executor import Record
from kg_context.db.reader import Reader
from kg_context.gate.pure.contracts import Transition
from kg_context.vocabulary import NOT_STANDING, STANDING_STATUSES, JustificationCase, as_values

__all__ = ["guard_window", "keep_hard_held"]


def _window_after(entries: Mapping[str, Record], planned: Mapping[str, Transition]) -> set[str]:
    after = {entry_id for entry_id, e in entries.items() if e["resident"]}
    for entry_id, move in planned.items():
        if move.resident is False:
            after.discard(entry_id)
        elif move.resident is True:
            after.add(entry_id)
    return after


def _reason(
    reader: Reader, boundary_id: str, entries: Mapping[str, Record], roots: list[str]
) -> str:
    gone = reader.read(
        "czar/gone_roots",
        boundary_id=boundary_id,
        standing=as_values(STANDING_STATUSES),
        root_classes=roots,
    )
    if gone:
        named = ", ".join(f"{e['id']} ({e['class']}, {e['status']})" for e in gone)
        return f"no live root: the root-class entries are no longer standing: {named}"
    held = sorted({str(e["class"]) for e in entries.values() if e["resident"]})
    return (
        f"no committed class is a root: the window holds {', '.join(held) or 'nothing'}; "
        f"the constitution's roots are {', '.join(roots) or 'none'}"
    )


def guard_window(
    reader: Reader,
    boundary_id: str,
    entries: Mapping[str, Record],
    planned: dict[str, Transition],
    roots: list[str],
) -> str | None:
    """When ``planned`` would empty a non-empty window through reachability retirements: drop
    those from ``planned`` (in place) and return the warning; else ``None`` and nothing
    changes. ``entries`` are the czar's candidates (resident or standing), by id; ``reader``
    (the plan's read transaction) finds the reason only when the guard fires."""
    before = [e for e in entries.values() if e["resident"]]
    if not before or _window_after(entries, planned):
        return None
    unreachable = [k for k, t in planned.items() if t.case is JustificationCase.UNREACHABLE]
    if not unreachable:
        return None  # only declared moves empty it: the writers declared that
    for entry_id in unreachable:
        del planned[entry_id]
    standing = sum(1 for e in before if e["status"] in STANDING_STATUSES)
    return (
        f"the czar kept the window: retiring what no root reaches would have emptied it "
        f"({len(unreachable)} of {len(before)} resident entries, {standing} standing); "
        f"{_reason(reader, boundary_id, entries, roots)}"
    )


def keep_hard_held(reader: Reader, boundary_id: str, planned: dict[str, Transition]) -> list[str]:
    """Drop from ``planned`` every move out of the window of an entry a standing entry that
    stays holds through a hard REQUIRES edge (a holder of another boundary always stays; one of
    this boundary stays unless the plan takes it out too), until nothing more changes. Returns
    the entries kept, sorted."""
    leaving = {
        k
        for k, t in planned.items()
        if t.resident is False or (t.to is not None and t.to in NOT_STANDING)
    }
    if not leaving:
        return []
    rows = reader.read(
        "czar/hard_holders",
        boundary_id=boundary_id,
        entry_ids=sorted(leaving),
        standing=as_values(STANDING_STATUSES),
    )
    holders = {r["id"]: [(h["boundary_id"], h["id"]) for h in r["holders"]] for r in rows}
    held: set[str] = set()
    changed = True
    while changed:
        changed = False
        for entry_id in sorted(leaving & holders.keys()):
            if any(b != boundary_id or h not in leaving for b, h in holders[entry_id]):
                leaving.discard(entry_id)
                held.add(entry_id)
                changed = True
    for entry_id in held:
        del planned[entry_id]
    return sorted(held)
