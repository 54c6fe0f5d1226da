"""Challenge and invalidation: the walk forward over provenance, and the blast-radius sets.

``challenge`` and ``invalidate`` walk ``DERIVED_FROM`` forward from a failed entry (``walk``),
grade what they reach (at risk or flagged), and commit ONE blast radius through the gate as
governed sets of kind ``invalidation`` (several linked parts when it is large). Nothing here
decides a descendant's fate.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from kg_context.errors import InputValidationError, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.contracts import (
    EntryProposal,
    EntryStatus,
    Proposal,
    Transition,
    WriterKind,
)
from kg_context.gate.pure.decision import Decision
from kg_context.gate.pure.status_machine import is_legal
from kg_context.record.walk import Walk, walk
from kg_context.settings import InvalidationSettings
from kg_context.vocabulary import JustificationCase, Outcome, SetKind

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
    """The committed (or refused) blast-radius sets and the walk behind them. ``decision`` and
    ``proposal`` are part 1's (the failed entries and the whole summary); ``decisions`` holds
    every part the gate decided, in order, and ``proposals`` every part planned."""

    mode: Mode
    target: str
    walk: Walk
    decision: Decision
    proposal: Proposal
    moved_at_risk: tuple[str, ...]
    skipped: dict[str, str] = field(default_factory=dict)  # id -> status it could not leave
    decisions: tuple[Decision, ...] = ()
    proposals: tuple[Proposal, ...] = ()

    @property
    def summary_entry_id(self) -> str:
        return self.proposal.entry_ids()[0]

    @property
    def parts(self) -> int:
        """How many governed sets the blast radius was planned as."""
        return len(self.proposals)

    @property
    def complete(self) -> bool:
        """Whether every part was committed."""
        return len(self.decisions) == len(self.proposals) and all(
            d.outcome == Outcome.COMMIT for d in self.decisions
        )

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

    def as_dict(self) -> dict[str, Any]:
        """The blast radius as JSON-ready data: part 1's decision, every part decided, the
        walk's figures and the recovery actions. The one form the CLI's ``--json`` and the
        HTTP body (``InvalidationOut``) carry."""
        return {
            "mode": self.mode,
            "target": self.target,
            "decision": self.decision.as_dict(),
            "parts": [part.as_dict() for part in self.decisions],
            "complete": self.complete,
            "pages": self.walk.pages,
            "summary": self.proposal.summary,
            "failed": sorted(self.walk.failed),
            "at_risk": list(self.moved_at_risk),
            "flagged": list(self.walk.flagged),
            "recovery_actions": self.recovery_actions(),
        }


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
        raise InputValidationError(
            f"a {mode} names its writer and gives a reason", boundary_id=boundary.id
        )
    settings = settings or boundary.settings.invalidation
    boundary_id = boundary.id
    rows = boundary.executor.read(
        "invalidation/failed_entries", target=target, boundary_id=boundary_id
    )
    if not rows:
        raise StateError(
            f"no entry or set {target} in boundary {boundary_id}",
            boundary_id=boundary_id,
            writer_id=writer_id,
        )
    failed = {row["id"]: row["status"] for row in rows}
    found = walk(
        boundary.executor,
        boundary_id,
        failed,
        max_depth=settings.max_depth,
        max_nodes=settings.max_nodes,
        page_size=settings.page_size,
        one_read_max=settings.one_read_max,
    )
    transitions, moved, skipped = _transitions(
        found, target, mode, reason, boundary_id=boundary_id, writer_id=writer_id
    )
    proposals = _proposals(
        found, boundary_id, target, (mode, reason, writer_id, WriterKind(writer_kind)),
        settings, transitions, moved, skipped,
    )  # fmt: skip
    decisions: list[Decision] = []
    committed: set[str] = set()
    for part in proposals:
        decision = boundary.commit(part)
        decisions.append(decision)
        if decision.outcome != Outcome.COMMIT:
            break
        committed.update(t.entry_id for t in part.transitions)
    return BlastRadius(
        mode,
        target,
        found,
        decisions[0],
        proposals[0],
        tuple(i for i in moved if i in committed),
        skipped,
        tuple(decisions),
        tuple(proposals),
    )


def _proposals(
    found: Walk,
    boundary_id: str,
    target: str,
    who: tuple[Mode, str, str, WriterKind],
    settings: InvalidationSettings,
    transitions: list[Transition],
    moved: list[str],
    skipped: dict[str, str],
) -> list[Proposal]:
    """The blast radius as governed sets of at most ``transitions_per_set`` transitions: part 1
    with the failed entries and the whole summary, then the linked parts."""
    mode, reason, writer_id, writer_kind = who
    identity = "\n".join(
        [mode, target, reason, writer_id, str(found.seq), *sorted(found.failed), *found.at_risk]
    )
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    base = f"{boundary_id}/{mode}/{digest}"
    size = settings.transitions_per_set
    chunks = [transitions[i : i + size] for i in range(0, len(transitions), size)]
    line, first = _summary_entry(
        found, base, target, mode, reason, moved, skipped, settings, len(chunks)
    )
    proposals = []
    for number, chunk in enumerate(chunks, start=1):
        set_id = base if number == 1 else f"{base}/part-{number}"
        summary_line, summary = (
            (line, first)
            if number == 1
            else _part_entry(base, set_id, target, mode, (number, len(chunks)), chunk)
        )
        proposals.append(
            Proposal(
                id=set_id,
                boundary_id=boundary_id,
                writer_id=writer_id,
                writer_kind=writer_kind,
                set_id=set_id,
                entries=(summary,),
                transitions=tuple(chunk),
                summary=summary_line[:2000],
                kind=SetKind.INVALIDATION,
            )
        )
    return proposals


def _part_entry(
    base: str,
    set_id: str,
    target: str,
    mode: Mode,
    position: tuple[int, int],
    chunk: list[Transition],
) -> tuple[str, EntryProposal]:
    """The summary entry of part ``number`` > 1 of ``parts``: which invalidation it continues,
    linked to part 1's summary entry."""
    number, parts = position
    line = f"{mode} {target}: part {number} of {parts} of {base}: {len(chunk)} at risk (essential)"
    entry = EntryProposal.model_validate(
        {
            "id": f"{set_id}#summary",
            "class": "fact",
            "key": f"blast-radius/{target}"[:512],
            "body": "\n".join([line, f"moves: {_listed([t.entry_id for t in chunk], 40)}"]),
            "derived_from": [{"entry_id": f"{base}#summary", "essential": False}],
            "attributes": {
                "source": "invalidation-walk",
                "mode": mode,
                "target": target,
                "invalidation": base,
                "part": number,
                "parts": parts,
                "transitions": len(chunk),
            },
        }
    )
    return line, entry


def _transitions(
    found: Walk, target: str, mode: Mode, reason: str, *, boundary_id: str, writer_id: str
) -> tuple[list[Transition], list[str], dict[str, str]]:
    """The failed entries to challenged/invalidated, their essential descendants to at_risk
    (each naming its failed ancestor); what the status machine does not allow is skipped
    (``boundary_id`` and ``writer_id`` name whose act it is, for the error's context)."""
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
            f"{sorted(set(skipped.values()))}",
            boundary_id=boundary_id,
            writer_id=writer_id,
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
    parts: int,
) -> tuple[str, EntryProposal]:
    """The summary line and entry of part 1: counts, ids (up to a cap), depth, any bound that
    cut, how many pages the walk took and how many sets commit it."""
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
        + (f"; walked in {found.pages} pages" if found.paged else "")
        + (f"; committed in {parts} sets" if parts > 1 else "")
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
                "pages": found.pages,
                "edges": found.edges,
                "parts": parts,
                "part": 1,
                "invalidation": set_id,
            },
        }
    )
    return line, summary


def _listed(ids: list[str], cap: int) -> str:
    if not ids:
        return "none"
    shown = ", ".join(ids[:cap])
    return shown + (f" (+{len(ids) - cap} more)" if len(ids) > cap else "")
