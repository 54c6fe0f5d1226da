"""The constitution's predicate library: deterministic checks over typed declarations and metadata.

Each predicate looks at one closed set, the constitution and the snapshot, and returns ``None``
(passed) or a ``Violation`` with a reason code, a detail and a suggested amendment. Rejections
(malformed sets) are checked before halts (sets the constitution cannot decide). No predicate may
call a model, compare texts for similarity, or classify meaning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from kg_context.gate.constitution import Constitution
from kg_context.gate.contracts import EntryProposal, Proposal, Transition
from kg_context.gate.set_constructor import ClosedSet
from kg_context.gate.snapshot import Snapshot
from kg_context.gate.status_machine import is_legal
from kg_context.vocabulary import (
    NOT_STANDING,
    EntryStatus,
    Outcome,
    ReasonCode,
    WriterKind,
)

__all__ = ["HALTS", "REJECTS", "Check", "SetView", "Violation"]


@dataclass(frozen=True, slots=True)
class Violation:
    """A predicate's refusal: the reason code (which says reject or halt), a detail naming what
    was found, and a suggested constitution amendment (empty where none applies)."""

    reason_code: ReasonCode
    detail: str
    suggested_amendment: str

    @property
    def outcome(self) -> Outcome:
        return self.reason_code.outcome


@dataclass(frozen=True)
class SetView:
    """A closed set with what the predicates need precomputed."""

    closed: ClosedSet
    entries: tuple[tuple[Proposal, str, EntryProposal], ...]  # (proposal, entry id, entry)
    tokens: dict[str, int]  # entry id -> tokens
    append_only: bool

    @property
    def new_ids(self) -> set[str]:
        return {entry_id for _, entry_id, _ in self.entries}

    @cached_property
    def transitions(self) -> list[tuple[Proposal, Transition]]:
        return [(p, t) for p in self.closed.proposals for t in p.transitions]


Check = Callable[[SetView, Constitution, Snapshot], Violation | None]


def _reject(code: ReasonCode, detail: str, amendment: str = "") -> Violation:
    assert code.outcome is Outcome.REJECT, code
    return Violation(code, detail, amendment)


def _halt(code: ReasonCode, detail: str, amendment: str) -> Violation:
    assert code.outcome is Outcome.HALT, code
    return Violation(code, detail, amendment)


def set_size(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    if len(view.entries) > c.limits.max_entries_per_set:
        return _reject(
            ReasonCode.SET_TOO_LARGE,
            f"{len(view.entries)} entries; limits.max_entries_per_set is "
            f"{c.limits.max_entries_per_set}",
            f"[limits] max_entries_per_set = {len(view.entries)}",
        )
    return None


def class_allowed(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    for proposal, entry_id, entry in view.entries:
        allowed = c.writers.allowed(proposal.writer_kind)
        if entry.entry_class not in allowed:
            return _reject(
                ReasonCode.CLASS_NOT_ALLOWED,
                f"entry {entry_id}: writer kind {proposal.writer_kind.value} may not commit "
                f"class {entry.entry_class.value}",
                f"[writers] {proposal.writer_kind.value} += [{entry.entry_class.value!r}]",
            )
    return None


def body_size(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    for _proposal, entry_id, _entry in view.entries:
        tokens = view.tokens[entry_id]
        if tokens > c.limits.max_body_tokens:
            return _reject(
                ReasonCode.BODY_TOO_LARGE,
                f"entry {entry_id} has {tokens} tokens; limits.max_body_tokens is "
                f"{c.limits.max_body_tokens}",
                f"[limits] max_body_tokens = {tokens}",
            )
    return None


def entry_ids_free(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    for _proposal, entry_id, _entry in view.entries:
        if entry_id in snapshot.entries:
            return _reject(
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
            return _reject(
                ReasonCode.MISSING_PROVENANCE,
                f"entry {entry_id} (class {entry.entry_class.value}) declares no DERIVED_FROM "
                "and no `source` attribute",
                f"[provenance] required_classes -= [{entry.entry_class.value!r}]",
            )
    return None


def deliberative_lease(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    deliberative = set(c.deliberative.classes)
    for _proposal, entry_id, entry in view.entries:
        if entry.entry_class not in deliberative:
            continue
        if entry.expires_after is None and not entry.superseded_by_default:
            return _reject(
                ReasonCode.MISSING_LEASE,
                f"deliberative entry {entry_id} (class {entry.entry_class.value}) carries neither "
                "expires_after nor superseded_by_default",
            )
        if entry.expires_after is not None and entry.expires_after > c.deliberative.max_lease_sets:
            return _reject(
                ReasonCode.MISSING_LEASE,
                f"deliberative entry {entry_id} asks a lease of {entry.expires_after} sets; "
                f"deliberative.max_lease_sets is {c.deliberative.max_lease_sets}",
                f"[deliberative] max_lease_sets = {entry.expires_after}",
            )
    return None


def dependencies_exist(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    new_ids = view.new_ids
    for _proposal, entry_id, entry in view.entries:
        for dep in [r.entry_id for r in entry.derived_from] + [r.entry_id for r in entry.requires]:
            if dep not in new_ids and dep not in snapshot.entries:
                return _reject(
                    ReasonCode.UNKNOWN_DEPENDENCY,
                    f"entry {entry_id} declares a dependency on {dep}, which is not in the record",
                )
    return None


def czar_independence(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    for proposal, t in view.transitions:
        touched = snapshot.entries.get(t.entry_id)
        if (
            proposal.writer_kind is WriterKind.CZAR
            and touched is not None
            and touched.writer_id == proposal.writer_id
        ):
            return _reject(
                ReasonCode.CZAR_INDEPENDENCE,
                f"czar {proposal.writer_id} would retire {t.entry_id}, which it wrote itself",
            )
    for proposal, entry_id, entry in view.entries:
        if proposal.writer_kind is not WriterKind.CZAR:
            continue
        for ref in entry.references():
            touched = snapshot.entries.get(ref)
            if touched is not None and touched.writer_id == proposal.writer_id:
                return _reject(
                    ReasonCode.CZAR_INDEPENDENCE,
                    f"czar {proposal.writer_id} would compact {ref} (via {entry_id}), "
                    "which it wrote itself",
                )
    return None


def fragmentation(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    if view.closed.fragmented_with:
        others = ", ".join(view.closed.fragmented_with)
        return _halt(
            ReasonCode.FRAGMENTATION,
            f"set {view.closed.set_id} and {others} touch the same target within one window of "
            f"{c.window.proposals} proposals",
            "group them under one set id, or [window] proposals = 1 to treat them apart",
        )
    return None


def supersession_target(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    if view.append_only:
        return None
    boundary_id = snapshot.boundary.id
    for _proposal, entry_id, entry in view.entries:
        for sup in entry.supersedes:
            old = snapshot.entries.get(sup.entry_id)
            problem = None
            if old is None:
                problem = "does not exist"
            elif old.boundary_id != boundary_id:
                problem = f"is in boundary {old.boundary_id}, not {boundary_id}"
            elif not old.live:
                problem = f"is {old.status}, not live"
            elif old.key != entry.key:
                problem = f"has key {old.key!r}, not {entry.key!r}"
            if problem:
                return _halt(
                    ReasonCode.SUPERSESSION_TARGET,
                    f"entry {entry_id} declares it supersedes {sup.entry_id}, which {problem}",
                    "correct the declaration, or resolve with --approve to record it unexecuted",
                )
    return None


def verse_adoption(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    needs_adoption = {v.value for v in c.verse.adoption_required_for}
    for proposal, entry_id, entry in view.entries:
        if entry.verse.value == snapshot.boundary.verse or entry.verse.value not in needs_adoption:
            continue
        receipt = proposal.adoption_receipt_id
        if receipt is None or receipt not in snapshot.adoption_receipts:
            return _halt(
                ReasonCode.VERSE_ADOPTION,
                f"entry {entry_id} is {entry.verse.value} material entering a "
                f"{snapshot.boundary.verse} boundary without an adoption receipt",
                "an operator issues an adoption receipt (kg-context adopt) and the writer cites it",
            )
    return None


def density(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    if view.append_only:
        return None
    fanout = sum(
        len(e.supersedes) + len(e.derived_from) + len(e.requires) for _, _, e in view.entries
    )
    if fanout > c.density.max_set_fanout:
        return _halt(
            ReasonCode.DENSITY,
            f"set {view.closed.set_id} declares {fanout} edges; density.max_set_fanout is "
            f"{c.density.max_set_fanout}",
            f"[density] max_set_fanout = {fanout}, or declare fewer (soft, leased) edges",
        )
    superseded = sum(len(e.supersedes) for _, _, e in view.entries)
    live = snapshot.boundary.live_count + len(view.entries) - superseded
    requires = snapshot.boundary.requires_count + sum(len(e.requires) for _, _, e in view.entries)
    if live >= c.density.ratio_floor_entries and live > 0:
        ratio = requires / live
        if ratio > c.density.max_edges_per_live_entry:
            return _halt(
                ReasonCode.DENSITY,
                f"REQUIRES edges per live entry would be {ratio:.2f} ({requires}/{live}); "
                f"density.max_edges_per_live_entry is {c.density.max_edges_per_live_entry}",
                f"[density] max_edges_per_live_entry = {ratio:.2f}, or declare fewer edges",
            )
    return None


def transitions_legal(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """Declared status changes: on existing entries of this boundary, legal in the status
    machine, and allowed to the writer kind by the constitution."""
    for proposal, t in view.transitions:
        current = snapshot.entries.get(t.entry_id)
        if current is None or current.boundary_id != snapshot.boundary.id:
            return _reject(
                ReasonCode.UNKNOWN_DEPENDENCY,
                f"transition of {t.entry_id}: no such entry in boundary {snapshot.boundary.id}",
            )
        if t.to is not None and not is_legal(current.status, t.to):
            return _reject(
                ReasonCode.ILLEGAL_TRANSITION,
                f"{t.entry_id} is {current.status}; the status machine has no "
                f"{current.status} -> {t.to.value}",
            )
        if t.to is not None and t.to not in c.transitions.allowed(proposal.writer_kind):
            return _reject(
                ReasonCode.TRANSITION_NOT_ALLOWED,
                f"writer kind {proposal.writer_kind.value} may not move entries to {t.to.value}",
                f"[transitions] {proposal.writer_kind.value} += [{t.to.value!r}]",
            )
        if t.resident is not None and not c.transitions.may_move_residency(proposal.writer_kind):
            return _reject(
                ReasonCode.TRANSITION_NOT_ALLOWED,
                f"writer kind {proposal.writer_kind.value} may not change residency",
            )
    return None


def residency_hold(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """A czar may not take an entry out of the window while a standing entry that stays holds it
    through a hard REQUIRES edge: hard pins the prerequisite, so the case is not mechanical."""
    leaving = {
        t.entry_id
        for p, t in view.transitions
        if t.resident is False or (t.to is not None and t.to in NOT_STANDING)
    }
    for proposal, t in view.transitions:
        if proposal.writer_kind is not WriterKind.CZAR or t.entry_id not in leaving:
            continue
        current = snapshot.entries.get(t.entry_id)
        holders = [h for h in (current.hard_held_by if current else ()) if h not in leaving]
        if holders:
            return _halt(
                ReasonCode.HARD_DEPENDENCY,
                f"czar {proposal.writer_id} would retire {t.entry_id}, which standing "
                f"{', '.join(sorted(holders)[:5])} still hold(s) through a hard REQUIRES edge",
                "retire or supersede the holder first, or resolve with --approve",
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
            return _halt(
                ReasonCode.WEAK_REVALIDATION,
                f"{proposal.writer_id} revalidates {t.entry_id} without referencing its failed "
                f"ancestor ({', '.join(sorted(required)[:5])}) in revalidates or DERIVED_FROM",
                "cite the failed ancestor in the proposal's revalidates (what was re-examined), "
                "or resolve with --approve",
            )
    return None


def compaction_pre_authorized(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    """A czar's transitions commit only for the cases the constitution pre-authorizes: the
    transition's declared ``case`` (never its free-text evidence) must be one of
    ``[czar] pre_authorized``; anything else (``UNCLEAR``, or no case) halts to the operator."""
    allowed = set(c.czar.pre_authorized)
    for proposal, t in view.transitions:
        if proposal.writer_kind is not WriterKind.CZAR:
            continue
        if t.case is None or t.case not in allowed:
            case = t.case.value if t.case is not None else "no case"
            evidence = t.justification[0] if t.justification else "no evidence"
            return _halt(
                ReasonCode.UNCLEAR_COMPACTION,
                f"czar transition of {t.entry_id} ({t.reason}) is not a pre-authorized case: "
                f"{case}: {evidence}",
                f"decide it: resolve --approve or --reject; or [czar] pre_authorized += [{case!r}]",
            )
    return None


# Malformed sets are rejected; sets the rules cannot decide halt to the operator.
REJECTS: tuple[Check, ...] = (
    set_size,
    class_allowed,
    body_size,
    entry_ids_free,
    provenance_required,
    deliberative_lease,
    dependencies_exist,
    transitions_legal,
    czar_independence,
)
HALTS: tuple[Check, ...] = (
    fragmentation,
    supersession_target,
    verse_adoption,
    density,
    residency_hold,
    weak_revalidation,
    compaction_pre_authorized,
)
