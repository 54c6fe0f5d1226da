"""Challenge and invalidation: the walk forward over provenance, and one blast-radius set.

``challenge`` and ``invalidate`` take a failed entry (or every entry of a failed set), walk
``DERIVED_FROM`` forward from it in Cypher (``cypher/invalidation/walk``: two pruned
breadth-first traversals per failed entry, one statement) and grade what they reach: a descendant
reached through essential edges only is *at risk*; one reached only through a supporting edge is
*flagged* (graded and recorded, never decided). What the walk returns is bounded in depth and
size by ``InvalidationSettings``, and the summary says when a bound cut it.

The outcome is ONE governed set (kind ``invalidation``) that passes the gate like any other: the
failed entries move to challenged/invalidated, the at-risk descendants to ``at_risk`` (each
transition's justification names the failed ancestor and the depth of the essential path), and a
summary entry carries the counts, the ids (up to a cap), the depth, and essential versus
supporting. Nothing here decides a descendant's fate: revalidation is a writer's later set that
references the failed ancestor (the ``WEAK_REVALIDATION`` predicate).
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.boundary import Boundary
from kg_context.gate.contracts import EntryProposal, EntryStatus, Proposal, Transition, WriterKind
from kg_context.gate.decision import Decision
from kg_context.gate.status_machine import NEXT_STATUSES, is_legal
from kg_context.settings import InvalidationSettings

__all__ = [
    "FAILED_PREFIX",
    "BlastRadius",
    "Walk",
    "challenge",
    "invalidate",
    "walk",
]

Mode = Literal["challenge", "invalidate"]
# A transition's justification names the failed ancestor with this prefix (revalidation reads it).
FAILED_PREFIX = "failed:"
# Statuses an essential descendant may move to at_risk from (the status machine decides).
MOVABLE = sorted(s.value for s, nxt in NEXT_STATUSES.items() if EntryStatus.AT_RISK in nxt)


@dataclass(frozen=True, slots=True)
class Walk:
    """What a walk found: the failed entries and every graded descendant within the bounds."""

    failed: dict[str, str]  # failed entry id -> its status when walked
    essential: dict[str, str]  # descendant reached through essential edges only -> failed root
    supporting: dict[str, str]  # descendant reached only through a supporting edge -> root
    blocked: dict[str, str]  # essential descendant whose status cannot go at_risk -> status
    depth: int  # the deepest level graded
    cut_by_depth: bool
    cut_by_size: bool
    max_depth: int
    max_nodes: int
    seq: int

    @property
    def at_risk(self) -> list[str]:
        """Descendants reached through essential edges only (sorted)."""
        return sorted(self.essential)

    @property
    def flagged(self) -> list[str]:
        """Descendants reached only through a supporting edge (sorted)."""
        return sorted(self.supporting)

    @property
    def reached(self) -> int:
        return len(self.essential) + len(self.supporting)

    @property
    def cut(self) -> bool:
        return self.cut_by_depth or self.cut_by_size


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


def walk(
    executor: QueryExecutor,
    boundary_id: str,
    failed: dict[str, str],
    *,
    max_depth: int,
    max_nodes: int,
) -> Walk:
    """Walk DERIVED_FROM forward from ``failed`` (id -> status). The two traversals (every
    descendant; the essential-only ones) are two read statements run concurrently, so the walk
    costs about one traversal of wall time on a server with two cores. Essential grade:
    reachable through essential edges only. Entries deeper than ``max_depth`` are cut; beyond
    ``max_nodes`` descendants the shallowest are kept (then by id). A descendant committed
    between the two reads can only come out flagged, never at risk: the safe side."""
    roots = sorted(failed)

    def reach() -> list[Record]:
        return executor.read(
            "invalidation/reach",
            roots=roots,
            boundary_id=boundary_id,
            max_depth=max_depth,
            max_nodes=max_nodes,
        )

    def essential_only() -> list[Record]:
        return executor.read(
            "invalidation/essential",
            roots=roots,
            boundary_id=boundary_id,
            max_depth=max_depth,
            movable=MOVABLE,
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        reach_rows, essential_rows = pool.submit(reach), pool.submit(essential_only)
        rows = reach_rows.result()
        graded_by_root = {row["root"]: row for row in essential_rows.result()}
    if rows:
        seq = rows[0]["seq"]
    else:
        state = executor.read("invalidation/boundary_seq", boundary_id=boundary_id)
        if not state:
            raise StateError(f"no boundary {boundary_id}")
        seq = state[0]["seq"]
    essential: dict[str, str] = {}
    supporting: dict[str, str] = {}
    blocked: dict[str, str] = {}
    cut_by_depth = cut_by_size = False
    depth = 0
    for row in rows:  # one per failed entry, in id order: the first root to reach wins
        root = row["root"]
        graded = graded_by_root.get(root)
        deepest_essential = graded["essential_deepest"] if graded else 0
        depth = max(depth, row["depth"])
        cut_by_depth |= max(row["deepest"], deepest_essential) > max_depth
        cut_by_size |= row["within_count"] > max_nodes
        kept = row["kept"]
        kept_set = set(kept)
        graded_ids: set[str] = set()
        if graded:
            for entry_id in graded["movable"]:
                if entry_id in kept_set:
                    graded_ids.add(entry_id)
                    essential.setdefault(entry_id, root)
            for entry_id, status in zip(graded["blocked"], graded["blocked_statuses"], strict=True):
                if entry_id in kept_set:
                    graded_ids.add(entry_id)
                    essential.setdefault(entry_id, root)
                    blocked[entry_id] = status
        for entry_id in kept:
            if entry_id not in graded_ids and entry_id not in supporting:
                supporting[entry_id] = root
    for entry_id in failed:
        essential.pop(entry_id, None)
        supporting.pop(entry_id, None)
        blocked.pop(entry_id, None)
    for entry_id in essential:
        supporting.pop(entry_id, None)
    if len(essential) + len(supporting) > max_nodes:  # several failed entries: bound by id
        cut_by_size = True
        kept = set(sorted([*essential, *supporting])[:max_nodes])
        essential = {i: r for i, r in essential.items() if i in kept}
        supporting = {i: r for i, r in supporting.items() if i in kept}
    return Walk(
        failed=dict(failed),
        essential=essential,
        supporting=supporting,
        blocked={i: s for i, s in blocked.items() if i in essential},
        depth=depth,
        cut_by_depth=cut_by_depth,
        cut_by_size=cut_by_size,
        max_depth=max_depth,
        max_nodes=max_nodes,
        seq=seq,
    )


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
    to = _TO[mode]
    transitions: list[Transition] = []
    skipped: dict[str, str] = {}
    for entry_id, status in sorted(found.failed.items()):
        if status == to.value:
            skipped[entry_id] = status
            continue
        if not is_legal(status, to):
            skipped[entry_id] = status
            continue
        transitions.append(
            Transition(
                entry_id=entry_id,
                to=to,
                reason=f"{mode}: {reason}"[:2000],
                justification=(f"{mode.upper()} {target}",),
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
                justification=(
                    f"{FAILED_PREFIX}{root}",
                    f"DERIVED_FROM* essential path from {root}",
                ),
            )
        )
    if not transitions:
        raise StateError(
            f"nothing to {mode}: {target} and its essential descendants are already "
            f"{sorted(set(skipped.values()))}"
        )
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
    identity = "\n".join(
        [mode, target, reason, writer_id, str(found.seq), *sorted(found.failed), *at_risk]
    )
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    set_id = f"{boundary_id}/{mode}/{digest}"
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
    proposal = Proposal(
        id=set_id,
        boundary_id=boundary_id,
        writer_id=writer_id,
        writer_kind=writer_kind,
        set_id=set_id,
        entries=(summary,),
        transitions=tuple(transitions),
        summary=line[:2000],
        kind="invalidation",
    )
    return proposal, moved, skipped


def _listed(ids: list[str], cap: int) -> str:
    if not ids:
        return "none"
    shown = ", ".join(ids[:cap])
    return shown + (f" (+{len(ids) - cap} more)" if len(ids) > cap else "")
