"""Challenge and invalidation: the walk forward over provenance, and one blast-radius set.

``challenge`` and ``invalidate`` take a failed entry (or every entry of a failed set), walk
``DERIVED_FROM`` forward from it in Cypher (``cypher/invalidation/reach`` and ``essential``:
two pruned breadth-first traversals per failed entry, run side by side) and grade what they
reach: a descendant reached through essential edges only is *at risk*; one reached only through a
supporting edge is *flagged* (graded and recorded, never decided). What the walk returns is
bounded in depth and size by ``InvalidationSettings``, and the summary says when a bound cut it.

The outcome is ONE governed set (kind ``invalidation``) that passes the gate like any other: the
failed entries move to challenged/invalidated, the at-risk descendants to ``at_risk`` (each
transition names its failed ancestor in ``failed_ancestors``, case ``FAILED_ANCESTOR``), and a
summary entry carries the counts, the ids (up to a cap), the depth, and essential versus
supporting. Nothing here decides a descendant's fate: revalidation is a writer's later set that
references the failed ancestor (the ``WEAK_REVALIDATION`` predicate).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from kg_context.errors import InputValidationError, StateError
from kg_context.gate.boundary import Boundary
from kg_context.gate.contracts import EntryProposal, EntryStatus, Proposal, Transition, WriterKind
from kg_context.gate.decision import Decision
from kg_context.gate.status_machine import is_legal
from kg_context.record.walk import Walk, walk
from kg_context.settings import InvalidationSettings
from kg_context.vocabulary import JustificationCase, SetKind

__all__ = [
    "BlastRadius",
    "Walk",
    "challenge",
    "invalidate",
    "walk",
]

Mode = Literal["challenge", "invalidate"]


@dataclass(frozen=True, slots=True)
class BlastRadius:
    """The committed (or refused) blast-radius set and the walk behind it."""

    mode: Mode
    target: str
    walk: Walk
    decision: Decision
    proposal: Proposal
    moved_at_risk: tuple[str, ...]
    skipped: dict[str, str] = field(default_factory=dict)  # id -> status it could not leave

    @property
    def summary_entry_id(self) -> str:
        return self.proposal.entry_ids()[0]

    def recovery_actions(self) -> dict[str, int]:
        """The operator/writer actions recovery needs: a replacement for each failed entry, a
        revalidate-or-invalidate decision for each at-risk descendant, a review of each flag."""
        actions = {
            "replace_failed": len(self.walk.failed),
            "decide_at_risk": len(self.moved_at_risk),
            "review_flagged": len(self.walk.flagged),
        }
        actions["total"] = sum(actions.values())
        return actions


def challenge(
    boundary: Boundary,
    target: str,
    *,
    reason: str,
    writer_id: str,
    writer_kind: WriterKind = WriterKind.OPERATOR,
    settings: InvalidationSettings | None = None,
) -> BlastRadius:
    """Challenge an entry (or every entry of a set): it moves to ``challenged``, its essential
    descendants to ``at_risk``; one blast-radius set passes the gate. ``settings`` default to
    the handle's (the engine's)."""
    return _run(boundary, target, "challenge", reason, writer_id, writer_kind, settings)


def invalidate(
    boundary: Boundary,
    target: str,
    *,
    reason: str,
    writer_id: str,
    writer_kind: WriterKind = WriterKind.OPERATOR,
    settings: InvalidationSettings | None = None,
) -> BlastRadius:
    """Invalidate an entry (or every entry of a set): it moves to ``invalidated``, its essential
    descendants to ``at_risk``; one blast-radius set passes the gate. ``settings`` default to
    the handle's (the engine's)."""
    return _run(boundary, target, "invalidate", reason, writer_id, writer_kind, settings)


_CASE: dict[Mode, JustificationCase] = {
    "challenge": JustificationCase.CHALLENGE,
    "invalidate": JustificationCase.INVALIDATE,
}
_TO: dict[Mode, EntryStatus] = {
    "challenge": EntryStatus.CHALLENGED,
    "invalidate": EntryStatus.INVALIDATED,
}


def _run(
    boundary: Boundary,
    target: str,
    mode: Mode,
    reason: str,
    writer_id: str,
    writer_kind: WriterKind,
    settings: InvalidationSettings | None,
) -> BlastRadius:
    if not reason.strip() or not writer_id:
        raise InputValidationError(f"a {mode} names its writer and gives a reason")
    settings = settings or boundary.settings.invalidation
    boundary_id = boundary.id
    rows = boundary.executor.read(
        "invalidation/failed_entries", target=target, boundary_id=boundary_id
    )
    if not rows:
        raise StateError(f"no entry or set {target} in boundary {boundary_id}")
    failed = {row["id"]: row["status"] for row in rows}
    found = walk(
        boundary.executor,
        boundary_id,
        failed,
        max_depth=settings.max_depth,
        max_nodes=settings.max_nodes,
    )
    proposal, moved, skipped = _proposal(
        found, boundary_id, target, mode, reason, writer_id, WriterKind(writer_kind), settings
    )
    decision = boundary.commit(proposal)
    return BlastRadius(mode, target, found, decision, proposal, tuple(moved), skipped)


def _proposal(
    found: Walk,
    boundary_id: str,
    target: str,
    mode: Mode,
    reason: str,
    writer_id: str,
    writer_kind: WriterKind,
    settings: InvalidationSettings,
) -> tuple[Proposal, list[str], dict[str, str]]:
    """The one blast-radius set: the transitions, and a summary entry with the counts."""
    transitions, moved, skipped = _transitions(found, target, mode, reason)
    identity = "\n".join(
        [mode, target, reason, writer_id, str(found.seq), *sorted(found.failed), *found.at_risk]
    )
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    set_id = f"{boundary_id}/{mode}/{digest}"
    line, summary = _summary_entry(found, set_id, target, mode, reason, moved, skipped, settings)
    proposal = Proposal(
        id=set_id,
        boundary_id=boundary_id,
        writer_id=writer_id,
        writer_kind=writer_kind,
        set_id=set_id,
        entries=(summary,),
        transitions=tuple(transitions),
        summary=line[:2000],
        kind=SetKind.INVALIDATION,
    )
    return proposal, moved, skipped


def _transitions(
    found: Walk, target: str, mode: Mode, reason: str
) -> tuple[list[Transition], list[str], dict[str, str]]:
    """The failed entries to challenged/invalidated, their essential descendants to at_risk
    (each naming its failed ancestor); what the status machine does not allow is skipped."""
    to = _TO[mode]
    transitions: list[Transition] = []
    skipped: dict[str, str] = {}
    for entry_id, status in sorted(found.failed.items()):
        if status == to.value or not is_legal(status, to):
            skipped[entry_id] = status
            continue
        transitions.append(
            Transition(
                entry_id=entry_id,
                to=to,
                reason=f"{mode}: {reason}"[:2000],
                case=_CASE[mode],
                justification=(f"{mode} {target}",),
            )
        )
    moved: list[str] = []
    for entry_id in found.at_risk:
        root = found.essential[entry_id]
        if entry_id in found.blocked:
            skipped[entry_id] = found.blocked[entry_id]
            continue
        moved.append(entry_id)
        transitions.append(
            Transition(
                entry_id=entry_id,
                to=EntryStatus.AT_RISK,
                reason=f"essential descendant of {root} ({mode}: {reason})"[:2000],
                case=JustificationCase.FAILED_ANCESTOR,
                failed_ancestors=(root,),
                justification=(f"DERIVED_FROM* essential path from {root}",),
            )
        )
    if not transitions:
        raise StateError(
            f"nothing to {mode}: {target} and its essential descendants are already "
            f"{sorted(set(skipped.values()))}"
        )
    return transitions, moved, skipped


def _summary_entry(
    found: Walk,
    set_id: str,
    target: str,
    mode: Mode,
    reason: str,
    moved: list[str],
    skipped: dict[str, str],
    settings: InvalidationSettings,
) -> tuple[str, EntryProposal]:
    """The summary line and entry: counts, ids (up to a cap), depth, and any bound that cut."""
    flagged = found.flagged
    at_risk = found.at_risk
    cut = []
    if found.cut_by_depth:
        cut.append(f"depth bound {found.max_depth}")
    if found.cut_by_size:
        cut.append(f"size bound {found.max_nodes}")
    line = (
        f"{mode} {target}: {len(found.failed)} failed, {len(at_risk)} at risk (essential), "
        f"{len(flagged)} flagged (supporting), depth {found.depth}"
        + (f"; CUT by {' and '.join(cut)}" if cut else "")
    )
    cap = settings.summary_ids
    body = "\n".join(
        [
            line,
            f"reason: {reason}",
            f"walked at seq {found.seq}",
            f"failed: {_listed(sorted(found.failed), cap)}",
            f"at_risk: {_listed(at_risk, cap)}",
            f"flagged: {_listed(flagged, cap)}",
            f"not moved: {_listed([f'{i}={s}' for i, s in sorted(skipped.items())], cap)}",
        ]
    )
    summary = EntryProposal.model_validate(
        {
            "id": f"{set_id}#summary",
            "class": "fact",
            "key": f"blast-radius/{target}"[:512],
            "body": body,
            "attributes": {
                "source": "invalidation-walk",
                "mode": mode,
                "target": target,
                "failed": len(found.failed),
                "at_risk": len(at_risk),
                "flagged": len(flagged),
                "moved_at_risk": len(moved),
                "depth": found.depth,
                "cut_by_depth": found.cut_by_depth,
                "cut_by_size": found.cut_by_size,
                "max_depth": found.max_depth,
                "max_nodes": found.max_nodes,
                "walked_at_seq": found.seq,
            },
        }
    )
    return line, summary


def _listed(ids: list[str], cap: int) -> str:
    if not ids:
        return "none"
    shown = ", ".join(ids[:cap])
    return shown + (f" (+{len(ids) - cap} more)" if len(ids) > cap else "")
