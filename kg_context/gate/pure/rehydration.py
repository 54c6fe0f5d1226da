"""Dependencies on retired entries under the constitution's ``[on_dependency]`` rule (pure): a
``REQUIRES`` or essential ``DERIVED_FROM`` on an entry retired from live brings it back in the same
set as a one-use scratch copy (as recall does), or the set halts ``NON_STANDING_DEPENDENCY``;
superseded or failed state is never brought back. Decided from the graph, never a writer's text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import EntryProposal, Proposal, WriterKind
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import EntryClass, EntryStatus, OnRetiredDependency

__all__ = [
    "COPY_MARKER",
    "RULE_REHYDRATE",
    "apply_dependency_rule",
    "dependency_amendment",
    "retired_reference_ids",
]

RULE_REHYDRATE = f"on_dependency={OnRetiredDependency.REHYDRATE.value}"
# What every rule-made copy's id carries after its original's id.
COPY_MARKER = "@rehydrated-"


def _dependencies(entry: EntryProposal) -> list[str]:
    """The bare references that must be standing: REQUIRES, and essential DERIVED_FROM (an
    interface's is its provenance)."""
    deps = [r.entry_id for r in entry.requires if r.boundary_id is None]
    if entry.entry_class != EntryClass.INTERFACE:
        deps += [r.entry_id for r in entry.derived_from if r.boundary_id is None and r.essential]
    return deps


def retired_reference_ids(sets: Sequence[ClosedSet], snapshot: Snapshot) -> list[str]:
    """The entries of the boundary the sets depend on or declare they supersede that the
    snapshot holds as retired (what the gate reads the sources and history of: the
    ``[on_dependency]`` and ``[on_supersession]`` rules, and the amendments of their halts),
    sorted."""
    found = set()
    for closed in sets:
        for proposal in closed.proposals:
            for entry in proposal.entries:
                refs = [*_dependencies(entry), *(s.entry_id for s in entry.supersedes)]
                for ref in refs:
                    state = snapshot.own(ref)
                    if state is not None and state.status == EntryStatus.RETIRED.value:
                        found.add(ref)
    return sorted(found)


def copy_id(original: str, set_id: str) -> str:
    digest = hashlib.sha256(f"{set_id}\n{original}".encode()).hexdigest()[:12]
    return f"{original}{COPY_MARKER}{digest}"


def _copy(snapshot: Snapshot, original: str, set_id: str) -> tuple[str, EntryProposal]:
    source = snapshot.retired_sources[original]
    copied = copy_id(original, set_id)
    entry = EntryProposal.model_validate(
        {
            "id": copied,
            "class": EntryClass.SCRATCH.value,
            "key": source.key,
            "body": source.body,
            "derived_from": [{"entry_id": original, "essential": False}],
            "expires_after": 1,
            "attributes": {
                "recalled_from": original,
                "recalled_class": source.entry_class,
                "recalled_status": EntryStatus.RETIRED.value,
                "recalled_set_seq": source.set_seq,
                "recalled_by_rule": RULE_REHYDRATE,
            },
        }
    )
    return copied, entry


def _rebuildable(snapshot: Snapshot, dep: str, new_ids: set[str]) -> bool:
    source = snapshot.retired_sources.get(dep)
    state = snapshot.own(dep)
    return (
        dep not in new_ids
        and source is not None
        and source.from_live
        and source.entry_class != EntryClass.SCRATCH.value
        and state is not None
        and state.status == EntryStatus.RETIRED.value
    )


def apply_dependency_rule(
    view: SetView,
    constitution: Constitution,
    snapshot: Snapshot,
    count_tokens: Callable[[Sequence[str]], list[int]],
) -> SetView:
    """The set with a rule-made copy of each rebuildable retired entry it depends on (placed
    before the first entry depending on it, in that entry's proposal, when its writer kind may
    write scratch): class scratch, the original's key and body, ``DERIVED_FROM`` it (supporting),
    a lease of one work set, id ``<original>@rehydrated-<digest of set and original>``. Its
    REQUIRES point at the copies (what the window holds); an essential DERIVED_FROM stays on the
    original (provenance and at-risk propagation are the original's). Every check then runs over
    the set as it stands. The set itself when the rule makes none. ``rehydrated`` names
    (dependent, original, copy) for the receipts."""
    if view.append_only or constitution.on_dependency.retired is not OnRetiredDependency.REHYDRATE:
        return view
    new_ids = view.new_ids
    set_id = view.closed.set_id
    copies: dict[str, str] = {}
    made: list[tuple[str, str, str]] = []
    entries: list[tuple[Proposal, str, EntryProposal]] = []
    tokens: dict[str, int] | None = None  # the batch's counts, copied once a copy is made
    for proposal, entry_id, entry in view.entries:
        if not constitution.may_write(WriterKind(proposal.writer_kind), EntryClass.SCRATCH.value):
            entries.append((proposal, entry_id, entry))
            continue
        wanted = [
            d
            for d in dict.fromkeys(_dependencies(entry))
            if _rebuildable(snapshot, d, new_ids) and d not in view.copy_source_ids
        ]
        for dep in wanted:
            if dep not in copies:
                copied, copy = _copy(snapshot, dep, set_id)
                copies[dep] = copied
                tokens = dict(view.tokens) if tokens is None else tokens
                tokens[copied] = count_tokens([copy.body])[0]
                entries.append((proposal, copied, copy))
            made.append((entry_id, dep, copies[dep]))
        if not wanted:
            entries.append((proposal, entry_id, entry))
            continue
        points = {d: copies[d] for d in wanted}
        requires = tuple(
            r.model_copy(update={"entry_id": points[r.entry_id]})
            if r.boundary_id is None and r.entry_id in points
            else r
            for r in entry.requires
        )
        entries.append((proposal, entry_id, entry.model_copy(update={"requires": requires})))
    if not made:
        return view
    return replace(
        view,
        entries=tuple(entries),
        tokens=view.tokens if tokens is None else tokens,
        rehydrated=tuple(made),
    )


def dependency_amendment() -> str:
    """The amendment that would have decided a dependency on a retired entry."""
    return f'[on_dependency] retired = "{OnRetiredDependency.REHYDRATE.value}"'
