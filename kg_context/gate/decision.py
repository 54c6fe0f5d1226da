"""The gate: the constitution executing at commit (pure logic, no I/O).

``evaluate`` takes closed sets in ledger order, the constitution and a snapshot read inside the
locked commit transaction, and returns one ``Decision`` per set plus the ``Plan`` of writes that
``gate_store`` performs in that same transaction. Each set is all or nothing: commit (entries,
edges, status flips of superseded entries, review and commit receipts, boundary seq + 1), halt (a
typed reason code, detail and suggested amendment; only the record of the halt is written) or
reject (malformed: a rejection receipt only). Sets later in a batch see the effects of earlier
ones, exactly as if each had committed in its own transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from kg_context.errors import ConfigurationError
from kg_context.gate.constitution import Constitution, parse_constitution
from kg_context.gate.contracts import (
    CLASS_LABELS,
    RESIDENT_LABEL,
    STATUS_LABELS,
    EntryClass,
    EntryStatus,
    Proposal,
)
from kg_context.gate.predicates import HALTS, REJECTS, SetView, Violation
from kg_context.gate.set_constructor import ClosedSet, implicit_set_id
from kg_context.gate.snapshot import EntryState, Snapshot

__all__ = [
    "Decision",
    "Plan",
    "evaluate",
    "evaluate_constitution",
    "rejection_for_unplaced",
]

Outcome = Literal["commit", "halt", "reject"]
Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the gate decided for one set (or, for ``replayed``, what it had decided before)."""

    outcome: Outcome
    set_id: str
    boundary_id: str
    seq: int | None
    proposal_ids: tuple[str, ...]
    entry_ids: tuple[str, ...]
    receipt_id: str
    constitution_version: str
    reason_code: str | None = None
    detail: str | None = None
    suggested_amendment: str | None = None
    halt_id: str | None = None
    replayed: bool = False


@dataclass(slots=True)
class Plan:
    """Every row the commit transaction writes, batched per statement."""

    sets: list[Row] = field(default_factory=list)
    writers: list[Row] = field(default_factory=list)
    entries: list[Row] = field(default_factory=list)
    supersedes: list[Row] = field(default_factory=list)
    derived_from: list[Row] = field(default_factory=list)
    requires: list[Row] = field(default_factory=list)
    receipts: list[Row] = field(default_factory=list)
    halts: list[Row] = field(default_factory=list)
    proposals: list[Row] = field(default_factory=list)
    transitions: list[Row] = field(default_factory=list)
    # (:Interface)-[:SUMMARIZES]->(:Entry): an interface entry summarizes what it is essentially
    # DERIVED_FROM (the czar's interface compaction; see kg_context.residency.czar).
    summarizes: list[Row] = field(default_factory=list)
    boundary: Row = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.sets or self.receipts or self.proposals)


def _digest(proposals: Sequence[Proposal]) -> str:
    joined = "\n".join(sorted(p.digest() for p in proposals))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def _view(closed: ClosedSet, tokens: dict[str, int], append_only: bool) -> SetView:
    entries = tuple(
        (proposal, entry_id, entry)
        for proposal in closed.proposals
        for entry_id, entry in zip(proposal.entry_ids(), proposal.entries, strict=True)
    )
    return SetView(closed=closed, entries=entries, tokens=tokens, append_only=append_only)


def _first_violation(
    view: SetView, constitution: Constitution, snapshot: Snapshot, waive: frozenset[str]
) -> tuple[Violation | None, list[str]]:
    passed: list[str] = []
    for check in (*REJECTS, *HALTS):
        violation = check(view, constitution, snapshot)
        if violation is not None and violation.reason_code not in waive:
            return violation, passed
        passed.append(check.__name__ if violation is None else f"{check.__name__} (waived)")
    return None, passed


def _receipt(
    receipt_id: str,
    kind: str,
    set_id: str,
    snapshot: Snapshot,
    constitution: Constitution,
    now: str,
    gateway_id: str,
    **fields: Any,
) -> Row:
    props = {
        "id": receipt_id,
        "kind": kind,
        "at": now,
        "boundary_id": snapshot.boundary.id,
        "set_id": set_id,
        "constitution_version": constitution.version,
        "constitution_sha256": constitution.sha256,
        "gateway_id": gateway_id,
        **fields,
    }
    return {"id": receipt_id, "set_id": set_id, "props": props}


def _base_set_row(closed: ClosedSet, snapshot: Snapshot, now: str, status: str) -> Row:
    writer_ids = sorted({p.writer_id for p in closed.proposals})
    summaries = [p.summary for p in closed.proposals if p.summary]
    return {
        "id": closed.set_id,
        "boundary_id": snapshot.boundary.id,
        "status": status,
        "seq": None,
        "writer_id": closed.proposals[0].writer_id,
        "writer_ids": writer_ids,
        "summary": " | ".join(summaries) if summaries else f"{len(closed.proposals)} proposal(s)",
        "closed_at": now,
        "kind": closed.proposals[0].kind,
        "explicit": closed.explicit,
        "digest": _digest(closed.proposals),
        "proposal_ids": [p.id for p in closed.proposals],
    }


def evaluate(
    closed_sets: Sequence[ClosedSet],
    snapshot: Snapshot,
    constitution: Constitution,
    count_tokens: Callable[[Sequence[str]], list[int]],
    *,
    now: str,
    gateway_id: str,
    waive: frozenset[str] = frozenset(),
    halt_serial: Callable[[str], int] | None = None,
    unplaced: Sequence[Proposal] = (),
) -> tuple[list[Decision], Plan]:
    """Decide every set in order and plan the writes. ``snapshot`` is updated in place.

    ``unplaced`` are proposals the set constructor could not place: each is rejected alone.
    """
    plan = Plan()
    decisions: list[Decision] = []
    for proposal in unplaced:
        alone = ClosedSet(implicit_set_id([proposal.id]), False, (proposal,))
        common = (alone.set_id, snapshot, constitution, now, gateway_id)
        view = _view(alone, {i: 0 for i in proposal.entry_ids()}, False)
        decisions.append(
            _plan_refusal(plan, alone, view, rejection_for_unplaced(proposal), [], common, None)
        )
    boundary = snapshot.boundary
    append_only = (
        boundary.task_horizon is not None
        and boundary.task_horizon < constitution.horizon.append_only_below
    )
    bodies = [e.body for c in closed_sets for p in c.proposals for e in p.entries]
    ids = [i for c in closed_sets for p in c.proposals for i in p.entry_ids()]
    tokens = dict(zip(ids, count_tokens(bodies), strict=True))

    for closed in closed_sets:
        view = _view(closed, tokens, append_only)
        violation, passed = _first_violation(view, constitution, snapshot, waive)
        proposal_ids = tuple(p.id for p in closed.proposals)
        common = (closed.set_id, snapshot, constitution, now, gateway_id)
        if violation is not None:
            decisions.append(
                _plan_refusal(plan, closed, view, violation, passed, common, halt_serial)
            )
            continue
        boundary.seq += 1
        seq = boundary.seq
        set_row = _base_set_row(closed, snapshot, now, "ratified")
        set_row.update(seq=seq, mode=_mode(append_only))
        plan.sets.append({"id": closed.set_id, "prev_id": boundary.last_set_id, "props": set_row})
        boundary.last_set_id = closed.set_id
        for p in closed.proposals:
            plan.writers.append(
                {"id": p.writer_id, "kind": p.writer_kind.value, "set_id": closed.set_id}
            )
            plan.proposals.append({"id": p.id, "status": "committed", "set_id": closed.set_id})

        changed: list[str] = []
        effects: list[str] = []
        new_tokens = 0
        explored_tokens = 0
        for proposal, entry_id, entry in view.entries:
            n_tokens = tokens[entry_id]
            new_tokens += n_tokens
            # Scratch and failed attempts land in the record at zero window cost: an entry with
            # the attribute explored=true is committed with status explored, not resident.
            explored = entry.attributes.get("explored") is True
            if explored:
                explored_tokens += n_tokens
            plan.entries.append(
                {
                    "id": entry_id,
                    "set_id": closed.set_id,
                    "labels": [
                        CLASS_LABELS[entry.entry_class],
                        STATUS_LABELS[EntryStatus.EXPLORED if explored else EntryStatus.LIVE],
                        *([] if explored else [RESIDENT_LABEL]),
                    ],
                    "targets": list(proposal.targets),
                    "props": {
                        "id": entry_id,
                        "boundary_id": boundary.id,
                        "class": entry.entry_class.value,
                        "key": entry.key,
                        "body": entry.body,
                        "verse": entry.verse.value,
                        "status": "explored" if explored else "live",
                        "resident": not explored,
                        "tokens": n_tokens,
                        "set_seq": seq,
                        "set_id": closed.set_id,
                        "expires_after_seq": (
                            seq + entry.expires_after if entry.expires_after else None
                        ),
                        "superseded_by_default": entry.superseded_by_default,
                        "writer_id": proposal.writer_id,
                        "proposal_id": proposal.id,
                        "attributes": (
                            json.dumps(entry.attributes, sort_keys=True)
                            if entry.attributes
                            else "{}"
                        ),
                        "created_at": now,
                    },
                }
            )
            changed.append(entry_id)
            effects.append(f"create:{entry_id}")
            snapshot.entries[entry_id] = EntryState(
                id=entry_id,
                boundary_id=boundary.id,
                key=entry.key,
                status="explored" if explored else "live",
                entry_class=entry.entry_class.value,
                writer_id=proposal.writer_id,
                resident=not explored,
                tokens=n_tokens,
                requires_out=len(entry.requires),
            )
            for ref in entry.derived_from:
                plan.derived_from.append(
                    {"from": entry_id, "to": ref.entry_id, "essential": ref.essential}
                )
                if entry.entry_class is EntryClass.INTERFACE and ref.essential:
                    plan.summarizes.append({"from": entry_id, "to": ref.entry_id, "seq": seq})
            for res in entry.requires:
                plan.requires.append(
                    {
                        "from": entry_id,
                        "to": res.entry_id,
                        "policy": res.policy.value,
                        "lease_until_seq": seq + res.lease_sets if res.lease_sets else None,
                        "needs": list(res.needs),
                        "set_seq": seq,
                    }
                )
            if not explored:
                boundary.live_count += 1
                boundary.requires_count += len(entry.requires)

        superseded_tokens = 0
        for _proposal, entry_id, entry in view.entries:
            for sup in entry.supersedes:
                old = snapshot.entries.get(sup.entry_id)
                # Executed only when the declaration holds (an operator may approve one that
                # does not: then the edge is recorded, unexecuted) and not append-only.
                executed = (
                    not append_only
                    and old is not None
                    and old.live
                    and old.boundary_id == boundary.id
                    and old.key == entry.key
                )
                plan.supersedes.append(
                    {
                        "from": entry_id,
                        "to": sup.entry_id,
                        "reason": sup.reason,
                        "executed": executed,
                        "seq": seq,
                    }
                )
                if executed and old is not None:
                    snapshot.entries[sup.entry_id] = replace(
                        old, status="superseded", resident=False
                    )
                    boundary.live_count -= 1
                    boundary.requires_count -= old.requires_out
                    superseded_tokens += old.tokens if old.resident else 0
                    changed.append(sup.entry_id)
                    effects.append(f"supersede:{sup.entry_id}")
                else:
                    effects.append(f"record-supersession:{sup.entry_id}")
        moved_tokens = _plan_transitions(plan, view, snapshot, seq, closed.set_id, changed, effects)
        boundary.committed_tokens += new_tokens
        boundary.resident_tokens += new_tokens - explored_tokens - superseded_tokens - moved_tokens

        digest = set_row["digest"]
        plan.receipts.append(
            _receipt(
                f"{closed.set_id}/review/{halt_serial(closed.set_id) if halt_serial else 1}",
                "review",
                *common,
                decision="commit",
                reasons=passed,
                source_writer=set_row["writer_ids"],
            )
        )
        commit_id = f"{closed.set_id}/commit"
        plan.receipts.append(
            _receipt(
                commit_id,
                "commit",
                *common,
                decision="commit",
                source_writer=set_row["writer_ids"],
                allowed_effects=effects,
                refused_effects=[],
                reasons=passed,
                state_revision=seq,
                changed_ids=changed,
                content_digest=digest,
                mode=_mode(append_only),
            )
        )
        decisions.append(
            Decision(
                outcome="commit",
                set_id=closed.set_id,
                boundary_id=boundary.id,
                seq=seq,
                proposal_ids=proposal_ids,
                entry_ids=tuple(i for _, i, _ in view.entries),
                receipt_id=commit_id,
                constitution_version=constitution.version,
            )
        )
    plan.boundary = _boundary_row(snapshot)
    return decisions, plan


def _plan_transitions(
    plan: Plan,
    view: SetView,
    snapshot: Snapshot,
    seq: int,
    set_id: str,
    changed: list[str],
    effects: list[str],
) -> int:
    """Plan the declared status/residency changes; return the resident tokens they remove."""
    boundary = snapshot.boundary
    removed_tokens = 0
    for _proposal, t in view.transitions:
        old = snapshot.entries[t.entry_id]
        status = t.to.value if t.to is not None else old.status
        resident = t.resident if t.resident is not None else old.resident
        if t.to is not None and status not in ("live", "revalidated") and old.live:
            boundary.live_count -= 1
            boundary.requires_count -= old.requires_out
        if t.to is not None and status in ("live", "revalidated") and not old.live:
            boundary.live_count += 1
            boundary.requires_count += old.requires_out
        if old.resident and not resident:
            removed_tokens += old.tokens
        elif resident and not old.resident:
            removed_tokens -= old.tokens
        snapshot.entries[t.entry_id] = replace(old, status=status, resident=resident)
        plan.transitions.append(
            {
                "entry_id": t.entry_id,
                "set_id": set_id,
                "from": old.status,
                "to": status,
                "from_label": STATUS_LABELS[EntryStatus(old.status)],
                "to_label": STATUS_LABELS[EntryStatus(status)],
                "resident": resident,
                "was_resident": old.resident,
                "reason": t.reason,
                "justification": list(t.justification),
                "seq": seq,
            }
        )
        changed.append(t.entry_id)
        effects.append(f"transition:{t.entry_id}:{old.status}->{status}:resident={resident}")
    return removed_tokens


def _mode(append_only: bool) -> str:
    return "append_only" if append_only else "governed"


def _plan_refusal(
    plan: Plan,
    closed: ClosedSet,
    view: SetView,
    violation: Violation,
    passed: list[str],
    common: tuple[str, Snapshot, Constitution, str, str],
    halt_serial: Callable[[str], int] | None,
) -> Decision:
    set_id, snapshot, constitution, now, _gateway = common
    halted = violation.outcome == "halt"
    set_row = _base_set_row(closed, snapshot, now, "halted" if halted else "rejected")
    set_row["mode"] = "governed"
    plan.sets.append({"id": set_id, "prev_id": None, "props": set_row})
    status = "halted" if halted else "rejected"
    for p in closed.proposals:
        plan.writers.append({"id": p.writer_id, "kind": p.writer_kind.value, "set_id": set_id})
        plan.proposals.append({"id": p.id, "status": status, "set_id": set_id})
    refused = [f"create:{i}" for _, i, _ in view.entries]
    plan.receipts.append(
        _receipt(
            f"{set_id}/review/{halt_serial(set_id) if halt_serial else 1}",
            "review",
            *common,
            decision=violation.outcome,
            reasons=[*passed, violation.reason_code],
            source_writer=set_row["writer_ids"],
        )
    )
    halt_id = None
    if halted:
        serial = halt_serial(set_id) if halt_serial else 1
        halt_id = f"{set_id}/halt/{serial}"
        receipt_id = f"{halt_id}/receipt"
        plan.halts.append(
            {
                "id": halt_id,
                "set_id": set_id,
                "props": {
                    "id": halt_id,
                    "boundary_id": snapshot.boundary.id,
                    "set_id": set_id,
                    "reason_code": violation.reason_code,
                    "detail": violation.detail,
                    "suggested_amendment": violation.suggested_amendment,
                    "status": "open",
                    "opened_at": now,
                    "constitution_version": constitution.version,
                },
            }
        )
    else:
        receipt_id = f"{set_id}/rejection"
    plan.receipts.append(
        _receipt(
            receipt_id,
            "halt" if halted else "rejection",
            *common,
            decision=violation.outcome,
            source_writer=set_row["writer_ids"],
            allowed_effects=[],
            refused_effects=refused,
            reasons=[violation.reason_code],
            reason_code=violation.reason_code,
            detail=violation.detail,
            suggested_amendment=violation.suggested_amendment,
            state_revision=snapshot.boundary.seq,
            changed_ids=[],
            content_digest=set_row["digest"],
        )
    )
    return Decision(
        outcome=violation.outcome,
        set_id=set_id,
        boundary_id=snapshot.boundary.id,
        seq=None,
        proposal_ids=tuple(p.id for p in closed.proposals),
        entry_ids=(),
        receipt_id=receipt_id,
        constitution_version=constitution.version,
        reason_code=violation.reason_code,
        detail=violation.detail,
        suggested_amendment=violation.suggested_amendment,
        halt_id=halt_id,
    )


def rejection_for_unplaced(proposal: Proposal) -> Violation:
    """The set constructor's refusal: a proposal with neither a set id nor a target."""
    return Violation(
        "reject",
        "NO_PLACEMENT",
        f"proposal {proposal.id} carries neither a set id nor declared targets",
        "",
    )


def evaluate_constitution(
    proposal: Proposal,
    snapshot: Snapshot,
    current: Constitution,
    recorded_sha: str | None,
    *,
    now: str,
    gateway_id: str,
) -> tuple[Decision, Plan, Constitution | None]:
    """Decide a constitution change: a governed set by an operator writer whose one entry's body
    is the new TOML. Commit makes it the boundary's constitution (no entry enters the window)."""
    plan = Plan()
    closed = ClosedSet(proposal.set_id or proposal.id, True, (proposal,))
    view = _view(closed, {i: 0 for i in proposal.entry_ids()}, False)
    text = proposal.entries[0].body
    common = (closed.set_id, snapshot, current, now, gateway_id)
    violation: Violation | None = None
    proposed: Constitution | None = None
    if proposal.writer_kind.value != "operator":
        violation = Violation(
            "reject",
            "NOT_OPERATOR",
            f"writer {proposal.writer_id} is a {proposal.writer_kind.value}; only an operator "
            "writer may change the constitution",
            "",
        )
    else:
        try:
            proposed = parse_constitution(text, source="proposed constitution")
        except ConfigurationError as err:
            violation = Violation("reject", "INVALID_CONSTITUTION", str(err), "")
        if proposed is not None and (
            proposed.version == current.version
            or (recorded_sha is not None and recorded_sha != proposed.sha256)
        ):
            violation = Violation(
                "reject",
                "CONSTITUTION_VERSION_TAKEN",
                f"version {proposed.version} is already recorded; give the new rules a new version",
                "",
            )
    if violation is not None or proposed is None:
        assert violation is not None
        decision = _plan_refusal(plan, closed, view, violation, [], common, None)
        plan.boundary = _boundary_row(snapshot)
        return decision, plan, None

    boundary = snapshot.boundary
    boundary.seq += 1
    set_row = _base_set_row(closed, snapshot, now, "ratified")
    set_row.update(seq=boundary.seq, mode="governed")
    plan.sets.append({"id": closed.set_id, "prev_id": boundary.last_set_id, "props": set_row})
    boundary.last_set_id = closed.set_id
    plan.writers.append(
        {"id": proposal.writer_id, "kind": proposal.writer_kind.value, "set_id": closed.set_id}
    )
    plan.proposals.append({"id": proposal.id, "status": "committed", "set_id": closed.set_id})
    change = f"constitution:{current.version}->{proposed.version}"
    plan.receipts.append(
        _receipt(
            f"{closed.set_id}/review/1",
            "review",
            *common,
            decision="commit",
            reasons=["operator_writer", "valid_constitution"],
            source_writer=[proposal.writer_id],
        )
    )
    commit_id = f"{closed.set_id}/commit"
    plan.receipts.append(
        _receipt(
            commit_id,
            "commit",
            *common,
            decision="commit",
            source_writer=[proposal.writer_id],
            allowed_effects=[change],
            refused_effects=[],
            reasons=["operator_writer", "valid_constitution"],
            state_revision=boundary.seq,
            changed_ids=[f"constitution:{proposed.version}"],
            content_digest=set_row["digest"],
            mode="governed",
            new_constitution_version=proposed.version,
            new_constitution_sha256=proposed.sha256,
        )
    )
    plan.boundary = _boundary_row(snapshot)
    decision = Decision(
        outcome="commit",
        set_id=closed.set_id,
        boundary_id=boundary.id,
        seq=boundary.seq,
        proposal_ids=(proposal.id,),
        entry_ids=(),
        receipt_id=commit_id,
        constitution_version=current.version,
    )
    return decision, plan, proposed


def _boundary_row(snapshot: Snapshot) -> Row:
    b = snapshot.boundary
    return {
        "seq": b.seq,
        "last_set_id": b.last_set_id,
        "live_count": b.live_count,
        "requires_count": b.requires_count,
        "committed_tokens": b.committed_tokens,
        "resident_tokens": b.resident_tokens,
    }
