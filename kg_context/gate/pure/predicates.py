"""The constitution's predicate library: deterministic checks over typed declarations and metadata.

Each predicate looks at one closed set, the constitution and the snapshot, and returns ``None``
(passed) or a ``Violation`` with a reason code, a detail and a suggested amendment. Rejections
(malformed sets) are checked before halts (sets the constitution cannot decide). No predicate may
call a model, compare texts for similarity, or classify meaning.

This module holds the checks of declarations and transitions and the two registries, ``REJECTS``
and ``HALTS``, in the order the gate runs them; the others live by concern in ``authority``,
``graph_shape``, ``adoption`` and ``fragmentation`` (what they share: ``verdicts``).
"""

from __future__ import annotations

from kg_context.gate.pure.adoption import adoption_scope, verse_adoption
from kg_context.gate.pure.authority import (
    compaction_pre_authorized,
    czar_cases_shown,
    czar_independence,
    residency_hold,
    set_kind_authority,
    writer_authority,
)
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.fragmentation import fragmentation
from kg_context.gate.pure.graph_shape import (
    cross_boundary,
    dependency_cycle,
    non_standing_dependency,
)
from kg_context.gate.pure.hard_fanout import hard_fanout
from kg_context.gate.pure.leases import foundational_mark
from kg_context.gate.pure.rehydration import COPY_MARKER
from kg_context.gate.pure.revision import undeclared_revision
from kg_context.gate.pure.revoked import revoked_parties
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.status_machine import is_legal
from kg_context.gate.pure.supersession_rules import (
    family_amendment,
    family_rule,
    rebuildable_retired,
    retired_target_rule,
    supersession_amendment,
)
from kg_context.gate.pure.verdicts import Check, SetView, Violation, halt, reject
from kg_context.vocabulary import (
    NOT_STANDING,
    EntryStatus,
    ReasonCode,
    SetKind,
    ThresholdParameter,
    WriterKind,
)

__all__ = [
    "HALTS",
    "REJECTS",
    "Check",
    "SetView",
    "Violation",
    "adoption_scope",
    "body_size",
    "class_allowed",
    "compaction_pre_authorized",
    "cross_boundary",
    "czar_cases_shown",
    "czar_independence",
    "deliberative_lease",
    "density",
    "dependencies_exist",
    "dependency_cycle",
    "entry_ids_free",
    "fragmentation",
    "hard_fanout",
    "non_standing_dependency",
    "provenance_required",
    "residency_hold",
    "set_kind_authority",
    "set_size",
    "supersession_target",
    "transitions_legal",
    "undeclared_revision",
    "verse_adoption",
    "weak_revalidation",
    "writer_authority",
]


def set_size(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    if len(view.entries) > c.limits.max_entries_per_set:
        return reject(
            ReasonCode.SET_TOO_LARGE,
            f"{len(view.entries)} entries; limits.max_entries_per_set is "
            f"{c.limits.max_entries_per_set}",
            f"[limits] max_entries_per_set = {len(view.entries)}",
        )
    return None


def class_allowed(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    """A class is built in or declared by the constitution (``UNDECLARED_CLASS``: a writer never
    declares one for itself), and the writer's kind may commit it (``CLASS_NOT_ALLOWED``). An
    operator's migration set (``ontology.migrate``) may write any class the constitution knows:
    it re-types entries under a ratified ontology change, and retiring the old entries out of
    the window is an operator's act anyway."""
    for proposal, entry_id, entry in view.entries:
        name, kind = entry.entry_class, proposal.writer_kind
        migration = proposal.kind == SetKind.MIGRATION and kind == WriterKind.OPERATOR
        if not c.knows_class(name):
            return reject(
                ReasonCode.UNDECLARED_CLASS,
                f"entry {entry_id}: class {name!r} is neither built in nor declared by "
                f"constitution {c.version}",
                f"[classes.{name}] writers = [{kind.value!r}] (a ratified constitution change)",
            )
        if not migration and not c.may_write(kind, name):
            amendment = (
                f"[classes.{name}] writers += [{kind.value!r}]"
                if name in c.classes
                else f"[writers] {kind.value} += [{name!r}]"
            )
            return reject(
                ReasonCode.CLASS_NOT_ALLOWED,
                f"entry {entry_id}: writer kind {kind.value} may not commit class {name}",
                amendment,
            )
    return None


def body_size(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    for _proposal, entry_id, _entry in view.entries:
        tokens = view.tokens[entry_id]
        if tokens > c.limits.max_body_tokens:
            return reject(
                ReasonCode.BODY_TOO_LARGE,
                f"entry {entry_id} has {tokens} tokens; limits.max_body_tokens is "
                f"{c.limits.max_body_tokens}",
                f"[limits] max_body_tokens = {tokens}",
            )
    return None


def entry_ids_free(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """A new entry id is new: not in the record, and declared once in the set (two proposals of
    one set declaring one id would otherwise reach the write and fail it)."""
    declared_by: dict[str, str] = {}
    made = view.rehydrated_copies
    for proposal, entry_id, _entry in view.entries:
        if COPY_MARKER in entry_id and entry_id not in made:
            return reject(
                ReasonCode.ENTRY_ID_TAKEN,
                f"entry id {entry_id} carries {COPY_MARKER!r}: ids of that form are the gate's "
                "(the copies its [on_dependency] rule makes)",
            )
        first = declared_by.setdefault(entry_id, proposal.id)
        if first != proposal.id:
            return reject(
                ReasonCode.ENTRY_ID_TAKEN,
                f"entry id {entry_id} is declared twice in this set (proposals {first} and "
                f"{proposal.id}); ids are never reused",
            )
        if entry_id in snapshot.entries:
            return reject(
                ReasonCode.ENTRY_ID_TAKEN,
                f"entry id {entry_id} already exists in the record; ids are never reused",
            )
    return None


def provenance_required(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    required = set(c.provenance.required_classes)
    for _proposal, entry_id, entry in view.entries:
        if (
            entry.entry_class in required
            and not entry.derived_from
            and "source" not in (entry.attributes)
        ):
            return reject(
                ReasonCode.MISSING_PROVENANCE,
                f"entry {entry_id} (class {entry.entry_class}) declares no DERIVED_FROM "
                "and no `source` attribute",
                f"[provenance] required_classes -= [{entry.entry_class!r}]",
            )
    return None


def deliberative_lease(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    """Deliberative entries, and entries of a declared class with ``lease_sets``, carry a lease
    within their limit or are superseded by default (``MISSING_LEASE``)."""
    deliberative = set(c.deliberative.classes)
    for _proposal, entry_id, entry in view.entries:
        declared = c.classes.get(entry.entry_class)
        if declared is not None and declared.lease_sets is not None:
            limit, section = declared.lease_sets, f"[classes.{entry.entry_class}] lease_sets"
        elif entry.entry_class in deliberative:
            limit, section = c.deliberative.max_lease_sets, "[deliberative] max_lease_sets"
        else:
            continue
        if entry.expires_after is None and not entry.superseded_by_default:
            return reject(
                ReasonCode.MISSING_LEASE,
                f"entry {entry_id} (class {entry.entry_class}) carries neither "
                "expires_after nor superseded_by_default",
            )
        if entry.expires_after is not None and entry.expires_after > limit:
            return reject(
                ReasonCode.MISSING_LEASE,
                f"entry {entry_id} (class {entry.entry_class}) asks a lease of "
                f"{entry.expires_after} sets; {section} is {limit}",
                f"{section} = {entry.expires_after}",
            )
    return None


def dependencies_exist(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """Every bare DERIVED_FROM or REQUIRES names an entry of the own boundary (new in the set, or
    in the record); a reference to another boundary names it (``boundary_id``) and must exist
    there (``CROSS_BOUNDARY`` decides whether it may be made at all)."""
    new_ids = view.new_ids
    for _proposal, entry_id, entry in view.entries:
        for ref in (*entry.derived_from, *entry.requires):
            dep, where = ref.entry_id, ref.boundary_id
            if where is None and dep not in new_ids and snapshot.own(dep) is None:
                return reject(
                    ReasonCode.UNKNOWN_DEPENDENCY,
                    f"entry {entry_id} declares a dependency on {dep}, which is not in boundary "
                    f"{snapshot.boundary.id}",
                )
            if where is not None and (where, dep) not in snapshot.foreign:
                return reject(
                    ReasonCode.UNKNOWN_DEPENDENCY,
                    f"entry {entry_id} declares a dependency on {dep} of boundary {where}, "
                    "which is not in that boundary",
                )
    return None


def supersession_target(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """A declared supersession names a live entry of the own boundary on the same key, or on a
    key of one declared key family (``[key_families]``), or a retired one the
    ``[on_supersession]`` rule records; otherwise the set halts, suggesting the rule that would
    have decided it where one would."""
    if view.append_only:
        return None
    boundary_id = snapshot.boundary.id
    for _proposal, entry_id, entry in view.entries:
        for sup in entry.supersedes:
            old = snapshot.entries.get(sup.entry_id)
            problem = None
            amendment = (
                "none decides it: correct the declaration, or an operator approves the halt to "
                "record the supersession unexecuted"
            )
            if old is None:
                problem = "does not exist"
            elif old.boundary_id != boundary_id:
                problem = f"is in boundary {old.boundary_id}, not {boundary_id}"
            elif retired_target_rule(c, snapshot, old, entry.key) is not None:
                continue  # recorded, not executed, by the [on_supersession] rule
            elif not old.live:
                problem = f"is {old.status}, not live"
                if rebuildable_retired(snapshot, old) and old.key == entry.key:
                    amendment = supersession_amendment()
            elif old.key != entry.key and family_rule(c, old.key, entry.key) is None:
                problem = f"has key {old.key!r}, not {entry.key!r}, and no key family holds both"
                amendment = family_amendment(old.key, entry.key)
            if problem:
                return halt(
                    ReasonCode.SUPERSESSION_TARGET,
                    f"entry {entry_id} declares it supersedes {sup.entry_id}, which {problem}",
                    amendment,
                )
    return None


def density(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    if view.append_only:
        return None
    fanout = view.fanout
    if fanout > c.density.max_set_fanout:
        return halt(
            ReasonCode.DENSITY,
            f"set {view.closed.set_id} declares {fanout} edges; density.max_set_fanout is "
            f"{c.density.max_set_fanout}",
            f"[density] max_set_fanout = {fanout}, or declare fewer (soft, leased) edges",
            parameter=ThresholdParameter.MAX_SET_FANOUT,
            observed=fanout,
        )
    superseded = sum(len(e.supersedes) for _, _, e in view.entries)
    live = snapshot.boundary.live_count + len(view.entries) - superseded
    requires = snapshot.boundary.requires_count + sum(len(e.requires) for _, _, e in view.entries)
    if live >= c.density.ratio_floor_entries and live > 0:
        ratio = requires / live
        if ratio > c.density.max_edges_per_live_entry:
            return halt(
                ReasonCode.DENSITY,
                f"REQUIRES edges per live entry would be {ratio:.2f} ({requires}/{live}); "
                f"density.max_edges_per_live_entry is {c.density.max_edges_per_live_entry}",
                f"[density] max_edges_per_live_entry = {ratio:.2f}, or declare fewer edges",
                parameter=ThresholdParameter.MAX_EDGES_PER_LIVE_ENTRY,
                observed=ratio,
            )
    return None


def transitions_legal(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """Declared status changes: on existing entries of this boundary, legal in the status
    machine (and never leaving an entry that is not standing in the window), and allowed to the
    writer kind by the constitution."""
    for proposal, t in view.transitions:
        current = snapshot.entries.get(t.entry_id)
        if current is None or current.boundary_id != snapshot.boundary.id:
            return reject(
                ReasonCode.UNKNOWN_DEPENDENCY,
                f"transition of {t.entry_id}: no such entry in boundary {snapshot.boundary.id}",
            )
        if t.to is not None and not is_legal(current.status, t.to):
            return reject(
                ReasonCode.ILLEGAL_TRANSITION,
                f"{t.entry_id} is {current.status}; the status machine has no "
                f"{current.status} -> {t.to.value}",
            )
        status = t.to if t.to is not None else EntryStatus(current.status)
        if t.resident is True and status in NOT_STANDING:
            return reject(
                ReasonCode.ILLEGAL_TRANSITION,
                f"{t.entry_id} would be {status.value} and resident: only standing entries "
                "are in the window",
            )
        if t.to is not None and t.to not in c.transitions.allowed(proposal.writer_kind):
            return reject(
                ReasonCode.TRANSITION_NOT_ALLOWED,
                f"writer kind {proposal.writer_kind.value} may not move entries to {t.to.value}",
                f"[transitions] {proposal.writer_kind.value} += [{t.to.value!r}]",
            )
        if t.resident is not None and not c.transitions.may_move_residency(proposal.writer_kind):
            return reject(
                ReasonCode.TRANSITION_NOT_ALLOWED,
                f"writer kind {proposal.writer_kind.value} may not change residency",
            )
    return None


def weak_revalidation(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """Revalidation (at_risk or challenged -> revalidated) is a writer's new act that must
    reference the failed ancestor: the set declares it in ``revalidates`` or one of its new
    entries declares DERIVED_FROM on it. The failed ancestors of an at-risk entry are those its
    at-risk transitions recorded (``Transition.failed_ancestors``, read back from the graph); a
    challenged entry, or an at-risk one with none recorded, is its own failed ancestor. A
    revalidation that references none is weak."""
    referenced = {ref for p in view.closed.proposals for ref in p.revalidates}
    referenced.update(ref.entry_id for _, _, e in view.entries for ref in e.derived_from)
    for proposal, t in view.transitions:
        if t.to is not EntryStatus.REVALIDATED:
            continue
        current = snapshot.entries.get(t.entry_id)
        recorded = set(current.failed_ancestors) if current is not None else set()
        required = recorded or {t.entry_id}
        if not required & referenced:
            return halt(
                ReasonCode.WEAK_REVALIDATION,
                f"{proposal.writer_id} revalidates {t.entry_id} without referencing its failed "
                f"ancestor ({', '.join(sorted(required)[:5])}) in revalidates or DERIVED_FROM",
                "cite the failed ancestor in the proposal's revalidates (what was re-examined), "
                "or an operator approves the halt",
            )
    return None


# Malformed sets are rejected; sets the rules cannot decide halt to the operator. Authority is
# checked first: nothing a writer declares is looked at under a kind it may not claim.
REJECTS: tuple[Check, ...] = (
    writer_authority,
    revoked_parties,
    set_kind_authority,
    set_size,
    class_allowed,
    body_size,
    entry_ids_free,
    provenance_required,
    deliberative_lease,
    cross_boundary,
    dependencies_exist,
    dependency_cycle,
    transitions_legal,
    czar_independence,
    czar_cases_shown,
    foundational_mark,
)
HALTS: tuple[Check, ...] = (
    fragmentation,
    supersession_target,
    undeclared_revision,
    non_standing_dependency,
    verse_adoption,
    adoption_scope,
    density,
    hard_fanout,
    residency_hold,
    weak_revalidation,
    compaction_pre_authorized,
)
