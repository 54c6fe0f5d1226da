"""Fragmentation, pure: splitting one change across sets must not evade a set-level invariant.

Set-level invariants are evaluated over a set's fragment group (recent sets that touch what it
touches and are not its ancestors); a set that breaks one only together with its fragments
halts ``FRAGMENTATION``.
"""

from __future__ import annotations

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.snapshot import SetFootprint, Snapshot
from kg_context.gate.pure.verdicts import SetView, Violation, halt
from kg_context.vocabulary import ReasonCode, ThresholdParameter

__all__ = ["dependencies", "footprint", "fragment_group", "fragmentation", "lineage"]


def lineage(view: SetView, snapshot: Snapshot, first_seq: int | None = None) -> frozenset[str]:
    """The window sets this set descends from: those that created an entry it references, and
    their own lineage. ``first_seq``: the sets known to lie before it are left out (no fragment
    window from then on reaches them: kept, a chain of sets decided in one batch recorded its
    whole batch on every set, a list growing with the chain)."""
    out: set[str] = set()
    recent = snapshot.recent_by_id()
    for ref in view.referenced:
        state = snapshot.own(ref)
        parent = (
            recent.get(state.set_id) if state is not None and state.set_id is not None else None
        )
        if parent is not None:
            out.add(parent.id)
            out.update(parent.lineage)
    if first_seq is None:
        return frozenset(out)
    return frozenset(i for i in out if (known := recent.get(i)) is None or known.seq >= first_seq)


def dependencies(view: SetView) -> frozenset[str]:
    """The entries of the boundary the set's new entries declare an edge to (the edges the
    fan-out counts), other than its own: what two fragments of one change share."""
    refs = {ref for _, _, entry in view.entries for ref in entry.references()}
    return frozenset(refs - view.new_ids)


def footprint(view: SetView, seq: int, snapshot: Snapshot, window: int) -> SetFootprint:
    """What a set ratified at ``seq`` leaves for the fragment groups of later sets (``window``:
    the constitution's fragment window, in sets; its lineage keeps the sets a window of that
    size from a later set can reach, or all it knows when the window is off)."""
    first_seq = seq + 1 - window if window else None
    return SetFootprint(
        id=view.closed.set_id,
        seq=seq,
        targets=view.closed.targets,
        writers=frozenset(p.writer_id for p in view.closed.proposals),
        fanout=view.declared_fanout,
        entries=len(view.entries),
        lineage=lineage(view, snapshot, first_seq),
        dependencies=dependencies(view),
    )


def fragment_group(view: SetView, c: Constitution, snapshot: Snapshot) -> list[SetFootprint]:
    """The ratified sets this set is evaluated together with (see the module docstring)."""
    targets, depends = view.closed.targets, dependencies(view)
    if c.window.sets == 0 or not (targets or depends):
        return []
    first_seq = snapshot.boundary.seq + 1 - c.window.sets
    ancestors = lineage(view, snapshot)
    return [
        f
        for f in snapshot.recent_since(first_seq)
        if f.id != view.closed.set_id
        and (f.targets & targets or ((not targets or not f.targets) and f.dependencies & depends))
        and f.id not in ancestors
    ]


def fragmentation(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    if view.append_only:
        return None
    group = fragment_group(view, c, snapshot)
    if not group:
        return None
    checks = (
        ("edges", view.fanout, sum(f.fanout for f in group), c.density.max_set_fanout,
         ThresholdParameter.MAX_SET_FANOUT, "[density] max_set_fanout"),
        ("entries", len(view.entries), sum(f.entries for f in group),
         c.limits.max_entries_per_set, ThresholdParameter.MAX_ENTRIES_PER_SET,
         "[limits] max_entries_per_set"),
    )  # fmt: skip
    for what, alone, others, limit, rule, section in checks:
        if alone <= limit < alone + others:
            return halt(
                ReasonCode.FRAGMENTATION,
                f"set {view.closed.set_id} and its fragments {', '.join(f.id for f in group)} "
                f"({_shared(view, group)}, within {c.window.sets} sets, whoever wrote them) "
                f"declare {alone + others} {what} together; {rule} is {limit}",
                f"group them under one set id and have an operator approve it, declare the "
                f"target(s) each set touches, or {section} = {alone + others}",
                parameter=rule,
                observed=alone + others,
            )
    return None


def _shared(view: SetView, group: list[SetFootprint]) -> str:
    """What the set shares with its fragments, for the halt's detail (at most 5 of each)."""
    targets = sorted(view.closed.targets & frozenset().union(*(f.targets for f in group)))
    depends = sorted(dependencies(view) & frozenset().union(*(f.dependencies for f in group)))
    said = [f"target(s) {', '.join(targets[:5])}"] if targets else []
    said += [f"dependencies {', '.join(depends[:5])}"] if depends else []
    return "; ".join(said)
