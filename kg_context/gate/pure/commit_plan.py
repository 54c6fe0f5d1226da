"""What a commit writes, planned in named steps (pure): the set, its entries, their edges, the
supersessions it executes, the transitions it declares, its receipts.

``plan_commit`` runs the steps in that order for one closed set that passed every predicate. Each
step adds rows to the ``Plan`` and updates the in-memory ``Snapshot`` so that later sets of the
same batch see its effects, exactly as if each set had committed in its own transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from kg_context.db.text_index import boundary_token
from kg_context.gate.pure.adoption import receipts_used
from kg_context.gate.pure.batch import Context, Decision, receipt, set_props
from kg_context.gate.pure.contracts import EntryProposal, Proposal
from kg_context.gate.pure.copy_sources import RULE_SOURCE, copy_uses
from kg_context.gate.pure.fragmentation import footprint
from kg_context.gate.pure.hard_fanout import RULE_SOFTEN
from kg_context.gate.pure.index_entries import index_props
from kg_context.gate.pure.leases import is_work, plan_foundational, plan_renewals
from kg_context.gate.pure.one_use import spent_copies, track_copies
from kg_context.gate.pure.rehydration import RULE_REHYDRATE
from kg_context.gate.pure.revision import RULE_SUPERSEDE
from kg_context.gate.pure.rows import EntryRow, Plan, SetRow, TransitionRow
from kg_context.gate.pure.snapshot import EntryState
from kg_context.gate.pure.supersession_rules import family_rule, retired_target_rule
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import (
    LIVE_STATUSES,
    NOT_STANDING,
    RESIDENT_LABEL,
    STATUS_LABELS,
    EntryClass,
    EntryStatus,
    JustificationCase,
    Outcome,
    ProposalStatus,
    ReasonCode,
    ReceiptKind,
    SetMode,
    SetStatus,
    class_label,
)

__all__ = ["RULE_SUCCESSORS", "plan_commit"]

# What ``[roots] successors`` made, as the receipts name it.
RULE_SUCCESSORS = "roots.successors=true"


@dataclass(slots=True)
class _Effects:
    """What one commit changed: ids, effect lines for the receipt, and token movements."""

    changed: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    not_executed: list[str] = field(default_factory=list)  # approved but not carried out
    superseded: list[str] = field(default_factory=list)  # supersessions executed (the index line)
    rule_made: list[str] = field(default_factory=list)  # what a constitution rule made
    rules: list[str] = field(default_factory=list)  # the rules that made it, in order
    new_tokens: int = 0
    left_window_tokens: int = 0  # resident tokens that left the window (net of any that came in)

    def rule(self, rule: str, what: str) -> None:
        """Name what a constitution rule made (``<rule>: <what>``) and the rule itself."""
        self.rule_made.append(f"{rule}: {what}")
        if rule not in self.rules:
            self.rules.append(rule)

    def note(self, entry_id: str, effect: str) -> None:
        self.changed.append(entry_id)
        self.effects.append(effect)


def plan_commit(plan: Plan, ctx: Context, view: SetView, passed: list[str]) -> Decision:
    """Plan the commit of one set: seq + 1, then every step, then the receipts."""
    boundary = ctx.snapshot.boundary
    boundary.seq += 1
    seq = boundary.seq
    if is_work(view):
        boundary.work_seq += 1  # the lease clock counts the boundary's work, not the czar's
    set_row = _plan_set(plan, ctx, view, seq)
    effects = _Effects()
    _plan_entries(plan, ctx, view, seq, effects)
    _name_rehydrations(view, effects)
    _name_softened(ctx, view, effects)
    if view.sourced:
        _plan_copy_sources(plan, ctx, view, seq, effects)
    roots = ctx.constitution.root_class_names()
    plan_renewals(plan, view, seq, boundary.work_seq, roots)
    plan_foundational(plan, view, seq, boundary.work_seq)
    _plan_supersessions(plan, ctx, view, seq, effects)
    _plan_transitions(plan, ctx, view, seq, effects)
    if is_work(view):
        _plan_spent_copies(plan, ctx, view, seq, effects)
    track_copies(ctx.snapshot, view, boundary.work_seq, roots)
    _plan_adoption_uses(plan, ctx, view, seq)
    boundary.committed_tokens += effects.new_tokens
    boundary.resident_tokens += effects.new_tokens - effects.left_window_tokens
    plan.decided[view.closed.set_id].index.append(index_props(ctx, view, seq, effects.superseded))
    return _plan_commit_receipts(plan, ctx, view, set_row, passed, effects)


def _plan_adoption_uses(plan: Plan, ctx: Context, view: SetView, seq: int) -> None:
    """One counted use of each adoption receipt the set used; later sets see it used."""
    snapshot = ctx.snapshot
    for receipt_id in receipts_used(view, ctx.constitution, snapshot):
        plan.adoption_uses.append(
            {"set_id": view.closed.set_id, "receipt_id": receipt_id, "seq": seq}
        )
        used = snapshot.adoptions[receipt_id]
        snapshot.adoptions[receipt_id] = replace(used, used=used.used + 1)


def _mode(view: SetView) -> SetMode:
    return SetMode.APPEND_ONLY if view.append_only else SetMode.GOVERNED


def _plan_set(plan: Plan, ctx: Context, view: SetView, seq: int) -> SetRow:
    """The ratified set, linked after the boundary's last ratified set, with its writers and
    the committed status of its proposals."""
    snapshot = ctx.snapshot
    boundary = snapshot.boundary
    mark = footprint(view, seq, snapshot, ctx.constitution.window.sets)
    props = set_props(ctx, view, SetStatus.RATIFIED)
    props.update(seq=seq, work_seq=boundary.work_seq, mode=_mode(view).value)
    # The fragment check's lists, stored only when not empty: an empty string list costs a
    # 128-byte record of its own, and most sets have no lineage (gate/load_snapshot reads an
    # absent one as []; neither is sealed into the ledger).
    if mark.lineage:
        props["lineage"] = sorted(mark.lineage)
    if mark.dependencies:
        props["dependencies"] = sorted(mark.dependencies)
    row: SetRow = {"id": view.closed.set_id, "prev_id": boundary.last_set_id, "props": props}
    decided = plan.add_set(row)
    boundary.last_set_id = view.closed.set_id
    snapshot.recent_sets.append(mark)
    for p in view.closed.proposals:
        # A writer id new to the boundary registers with its kind (write_plan, ON CREATE).
        snapshot.writers.setdefault(p.writer_id, p.writer_kind.value)
        if {"id": p.writer_id, "kind": p.writer_kind.value} not in decided.writers:
            decided.writers.append({"id": p.writer_id, "kind": p.writer_kind.value})
        decided.proposals.append({"id": p.id, "status": ProposalStatus.COMMITTED})
    return row


def _entry_row(
    ctx: Context, view: SetView, proposal: Proposal, entry_id: str, entry: EntryProposal, seq: int
) -> EntryRow:
    explored = entry.attributes.get("explored") is True
    status = EntryStatus.EXPLORED if explored else EntryStatus.LIVE
    # Whether the own lease makes it a root ([roots] leased, decided at commit).
    lease_root = (
        entry.expires_after is not None
        and entry.entry_class in ctx.constitution.leased_root_class_names()
    )
    return {
        "labels": [
            class_label(entry.entry_class),
            STATUS_LABELS[status],
            *([] if explored else [RESIDENT_LABEL]),
        ],
        "targets": list(proposal.targets),
        "props": {
            "id": entry_id,
            "boundary_id": ctx.boundary_id,
            # The boundary as one fulltext token (search filters by it inside the index), and
            # the embedding work-queue marker (embed_pending seeks it, then removes it).
            "boundary_token": boundary_token(ctx.boundary_id),
            "embedding_pending": True,
            "class": entry.entry_class,
            "key": entry.key,
            "body": entry.body,
            "verse": entry.verse.value,
            "status": status.value,
            "resident": not explored,
            "tokens": view.tokens[entry_id],
            "set_seq": seq,
            "set_id": view.closed.set_id,
            # A self-lease counts the boundary's work (work_seq), like every lease.
            "expires_after_seq": (
                ctx.snapshot.boundary.work_seq + entry.expires_after
                if entry.expires_after
                else None
            ),
            "lease_root": lease_root,
            # Until which work seq the own lease of an entry of another class makes it a root
            # ([roots] fresh_sets, the grace, decided at commit: nothing renews it).
            "fresh_until_seq": (
                ctx.snapshot.boundary.work_seq
                + min(entry.expires_after, ctx.constitution.roots.fresh_sets)
                if entry.expires_after and not lease_root and ctx.constitution.roots.fresh_sets
                else None
            ),
            "superseded_by_default": entry.superseded_by_default,
            "initial_status": status.value,
            "writer_id": proposal.writer_id,
            "proposal_id": proposal.id,
            "attributes": (
                json.dumps(entry.attributes, sort_keys=True) if entry.attributes else "{}"
            ),
            "created_at": ctx.now,
        },
    }


def _plan_entries(plan: Plan, ctx: Context, view: SetView, seq: int, effects: _Effects) -> None:
    """New entries (scratch and failed attempts, ``attributes.explored = true``, land in the
    record as ``explored``, out of the window at zero window cost) and their declared
    provenance and residency edges."""
    boundary = ctx.snapshot.boundary
    decided = plan.decided[view.closed.set_id]
    for proposal, entry_id, entry in view.entries:
        row = _entry_row(ctx, view, proposal, entry_id, entry, seq)
        decided.entries.append(row)
        explored = row["props"]["status"] == EntryStatus.EXPLORED
        tokens = view.tokens[entry_id]
        effects.new_tokens += tokens
        effects.left_window_tokens += tokens if explored else 0
        effects.note(entry_id, f"create:{entry_id}")
        ctx.snapshot.add_entry(
            EntryState(
                id=entry_id,
                boundary_id=boundary.id,
                key=entry.key,
                status=row["props"]["status"],
                entry_class=entry.entry_class,
                writer_id=proposal.writer_id,
                resident=not explored,
                tokens=tokens,
                requires_out=len(entry.requires),
                set_id=view.closed.set_id,
                set_writers=tuple(sorted({p.writer_id for p in view.closed.proposals})),
            )
        )
        _plan_edges(plan, entry_id, entry, seq, ctx.snapshot.boundary.work_seq)
        if not explored:
            boundary.live_count += 1
            boundary.requires_count += len(entry.requires)


def _plan_edges(plan: Plan, entry_id: str, entry: EntryProposal, seq: int, work: int) -> None:
    """Provenance (``DERIVED_FROM``; an interface also ``SUMMARIZES`` what it essentially derives
    from) and residency (``REQUIRES`` with its policy, lease and needs; a lease ends at a work
    seq: ``work`` is the boundary's work_seq at this set)."""
    for ref in entry.derived_from:
        if ref.boundary_id is not None:
            plan.foreign_edges.append(
                {
                    "edge": "derived_from",
                    "from": entry_id,
                    "to": ref.entry_id,
                    "to_boundary": ref.boundary_id,
                    "essential": ref.essential,
                    "policy": None,
                    "lease_until_seq": None,
                    "needs": [],
                    "set_seq": seq,
                }
            )
            continue
        plan.derived_from.append({"from": entry_id, "to": ref.entry_id, "essential": ref.essential})
        if entry.entry_class == EntryClass.INTERFACE and ref.essential:
            plan.summarizes.append({"from": entry_id, "to": ref.entry_id, "seq": seq})
    for res in entry.requires:
        if res.boundary_id is not None:
            plan.foreign_edges.append(
                {
                    "edge": "requires",
                    "from": entry_id,
                    "to": res.entry_id,
                    "to_boundary": res.boundary_id,
                    "essential": None,
                    "policy": res.policy.value,
                    "lease_until_seq": seq + res.lease_sets if res.lease_sets else None,
                    "needs": list(res.needs),
                    "set_seq": seq,
                }
            )
            continue
        plan.requires.append(
            {
                "from": entry_id,
                "to": res.entry_id,
                "policy": res.policy.value,
                "lease_until_seq": work + res.lease_sets if res.lease_sets else None,
                "lease_sets": res.lease_sets,
                "needs": list(res.needs),
                "set_seq": seq,
                "set_work": work,
            }
        )


def _unexecutable(old: EntryState | None, key: str, boundary_id: str, approved: bool) -> str | None:
    """Why a declared supersession cannot be executed (``None``: it can). An operator's approval
    of the set's SUPERSESSION_TARGET halt, or a key family holding both keys, lifts the same-key
    rule (a rename), nothing else."""
    if old is None:
        return "it does not exist"
    if old.boundary_id != boundary_id:
        return f"it is in boundary {old.boundary_id}"
    if not old.live:
        return f"it is {old.status}; only a live entry can be superseded"
    if old.key != key and not approved:
        return f"it has key {old.key!r}, not {key!r}"
    return None


def _plan_supersessions(
    plan: Plan, ctx: Context, view: SetView, seq: int, effects: _Effects
) -> None:
    """Declared supersessions: the edge (to an entry of this boundary); executed (the old entry
    superseded and out of the window) when the declaration holds and the set is not append-only.
    An operator who approves a SUPERSESSION_TARGET halt approves it as declared: a supersession
    across keys is executed; one whose target is not live cannot be, and is named in
    ``not_executed``."""
    snapshot = ctx.snapshot
    boundary = snapshot.boundary
    approved = ReasonCode.SUPERSESSION_TARGET in ctx.waived
    for _proposal, entry_id, entry in view.entries:
        for sup in entry.supersedes:
            old = snapshot.entries.get(sup.entry_id)
            family = None if old is None else family_rule(ctx.constitution, old.key, entry.key)
            recorded = retired_target_rule(ctx.constitution, snapshot, old, entry.key)
            problem = _unexecutable(old, entry.key, boundary.id, approved or family is not None)
            executed = not view.append_only and problem is None
            rule = (
                RULE_SUPERSEDE
                if (entry_id, sup.entry_id) in view.rule_made
                else (recorded or family)
            )
            if old is not None and old.boundary_id == boundary.id:  # no edge out of the boundary
                plan.supersedes.append(
                    {
                        "from": entry_id,
                        "to": sup.entry_id,
                        "reason": sup.reason,
                        "executed": executed,
                        "seq": seq,
                        "rule": rule,
                    }
                )
            if rule is not None and rule == recorded:
                effects.rule(
                    rule, f"{entry_id} supersedes retired {sup.entry_id}: recorded, not executed"
                )
            elif rule is not None:
                effects.rule(rule, f"{entry_id} supersedes {sup.entry_id}")
            if not executed or old is None:
                effects.effects.append(f"record-supersession:{sup.entry_id}")
                if problem is not None and approved:
                    effects.not_executed.append(f"supersede:{sup.entry_id}: {problem}")
                continue
            snapshot.add_entry(replace(old, status=EntryStatus.SUPERSEDED.value, resident=False))
            boundary.live_count -= 1
            boundary.requires_count -= old.requires_out
            effects.left_window_tokens += old.tokens if old.resident else 0
            effects.note(sup.entry_id, f"supersede:{sup.entry_id}")
            effects.superseded.append(sup.entry_id)
            _note_successor(ctx, effects, entry_id, old)


def _note_successor(ctx: Context, effects: _Effects, entry_id: str, old: EntryState) -> None:
    """Under ``[roots] successors``, name in the receipt each standing entry whose held
    REQUIRES into the superseded ``old`` now holds ``entry_id`` in its place (the hold itself is
    decided from the graph at every residency pass: while the holder stands and its edge holds)."""
    if not ctx.constitution.roots.successors:
        return
    work = ctx.snapshot.boundary.work_seq
    for holder in old.required_by:
        if not holder.holds_at(work):
            continue
        hold = "hard" if holder.policy == "hard" else f"soft, lease until work seq {holder.until}"
        effects.rule(
            RULE_SUCCESSORS,
            f"{entry_id} held through the REQUIRES of {holder.entry_id} on {old.id} ({hold})",
        )


def _plan_transitions(plan: Plan, ctx: Context, view: SetView, seq: int, effects: _Effects) -> None:
    """Declared status/residency changes of existing entries, with their case, failed
    ancestors and evidence recorded on the ``TRANSITIONED`` edge. An entry moved to a status
    that is not standing (superseded, retired, invalidated) leaves the window with it."""
    snapshot = ctx.snapshot
    boundary = snapshot.boundary
    for _proposal, t in view.transitions:
        old = snapshot.entries[t.entry_id]
        status = EntryStatus(t.to if t.to is not None else old.status)
        resident = t.resident if t.resident is not None else old.resident
        if t.resident is None and status in NOT_STANDING:
            resident = False  # residency follows a status that is not standing
        if t.to is not None and old.live != (status in LIVE_STATUSES):
            sign = 1 if status in LIVE_STATUSES else -1
            boundary.live_count += sign
            boundary.requires_count += sign * old.requires_out
        if old.resident != resident:
            effects.left_window_tokens += old.tokens if old.resident else -old.tokens
        snapshot.add_entry(replace(old, status=status.value, resident=resident))
        plan.transitions.append(
            {
                "entry_id": t.entry_id,
                "set_id": view.closed.set_id,
                "from": old.status,
                "to": status.value,
                "from_label": STATUS_LABELS[EntryStatus(old.status)],
                "to_label": STATUS_LABELS[status],
                "resident": resident,
                "was_resident": old.resident,
                "reason": t.reason,
                "case": t.case.value if t.case is not None else None,
                "failed_ancestors": list(t.failed_ancestors),
                "justification": list(t.justification),
                "seq": seq,
            }
        )
        effects.note(
            t.entry_id, f"transition:{t.entry_id}:{old.status}->{status}:resident={resident}"
        )


def _plan_spent_copies(
    plan: Plan, ctx: Context, view: SetView, seq: int, effects: _Effects
) -> None:
    """The recall copies whose one use this work set spent leave the window with it
    (``gate/one_use``): retired, a transition of this set with the lease facts it was decided
    from, named in its commit receipt."""
    snapshot = ctx.snapshot
    boundary = snapshot.boundary
    for spent in spent_copies(snapshot, view, boundary.work_seq):
        old = snapshot.entries[spent.entry_id]
        if old.live:
            boundary.live_count -= 1
            boundary.requires_count -= old.requires_out
        effects.left_window_tokens += old.tokens
        snapshot.add_entry(replace(old, status=EntryStatus.RETIRED.value, resident=False))
        plan.transitions.append(
            {
                "entry_id": spent.entry_id,
                "set_id": view.closed.set_id,
                "from": old.status,
                "to": EntryStatus.RETIRED.value,
                "from_label": STATUS_LABELS[EntryStatus(old.status)],
                "to_label": STATUS_LABELS[EntryStatus.RETIRED],
                "resident": False,
                "was_resident": True,
                "reason": "one use spent: its own lease ended with this work set",
                "case": JustificationCase.ONE_USE.value,
                "failed_ancestors": [],
                "justification": list(spent.justification),
                "seq": seq,
            }
        )
        effects.note(
            spent.entry_id,
            f"transition:{spent.entry_id}:{old.status}->{EntryStatus.RETIRED}:resident=False",
        )


def _transition_row(
    view: SetView,
    old: EntryState,
    to: EntryStatus,
    seq: int,
    reason: str,
    case: JustificationCase,
    justification: tuple[str, ...],
) -> TransitionRow:
    """A transition the gate itself decides for this set (no writer declared it): the entry
    is resident exactly when it becomes live."""
    return {
        "entry_id": old.id,
        "set_id": view.closed.set_id,
        "from": old.status,
        "to": to.value,
        "from_label": STATUS_LABELS[EntryStatus(old.status)],
        "to_label": STATUS_LABELS[to],
        "resident": to in LIVE_STATUSES,
        "was_resident": old.resident,
        "reason": reason,
        "case": case.value,
        "failed_ancestors": [],
        "justification": list(justification),
        "seq": seq,
    }


def _plan_copy_sources(
    plan: Plan, ctx: Context, view: SetView, seq: int, effects: _Effects
) -> None:
    """The dependencies the [on_dependency] recall_copy rule moved to the copies' sources: a
    source retired from live comes back live and resident (a REHYDRATED transition of this set),
    and the set spends each copy's one use (retired, ONE_USE) unless another standing entry holds
    it; named for the receipts."""
    snapshot = ctx.snapshot
    boundary = snapshot.boundary
    for use in copy_uses(view, snapshot, boundary.work_seq):
        dependents = ", ".join(use.dependents)
        if use.rehydrate:
            old = snapshot.entries[use.source_id]
            boundary.live_count += 1
            boundary.requires_count += old.requires_out
            effects.left_window_tokens -= old.tokens if not old.resident else 0
            snapshot.add_entry(replace(old, status=EntryStatus.LIVE.value, resident=True))
            plan.transitions.append(
                _transition_row(
                    view,
                    old,
                    EntryStatus.LIVE,
                    seq,
                    f"a recall copy's source: {dependents} require(s) {use.copy_id}",
                    JustificationCase.REHYDRATED,
                    use.justification,
                )
            )
            effects.note(
                use.source_id,
                f"transition:{use.source_id}:{old.status}->{EntryStatus.LIVE}:resident=True",
            )
            what = f"rehydrated {use.source_id}, resident"
        else:
            what = f"requires {use.source_id} as it stands"
        effects.rule(RULE_SOURCE, f"{dependents} require(s) recall copy {use.copy_id}: {what}")
        if not use.spent:
            continue
        copy = snapshot.entries[use.copy_id]
        if copy.live:
            boundary.live_count -= 1
            boundary.requires_count -= copy.requires_out
        effects.left_window_tokens += copy.tokens if copy.resident else 0
        snapshot.add_entry(replace(copy, status=EntryStatus.RETIRED.value, resident=False))
        if snapshot.one_use.pop(use.copy_id, None) is not None:
            boundary.one_use_pending = sorted(snapshot.one_use)
        plan.transitions.append(
            _transition_row(
                view,
                copy,
                EntryStatus.RETIRED,
                seq,
                f"one use spent: the set requires its source {use.source_id}",
                JustificationCase.ONE_USE,
                use.justification,
            )
        )
        effects.note(
            use.copy_id,
            f"transition:{use.copy_id}:{copy.status}->{EntryStatus.RETIRED}:resident=False",
        )


def _name_softened(ctx: Context, view: SetView, effects: _Effects) -> None:
    """The hard REQUIRES the [hard_fanout] rule committed soft, named for the receipts."""
    rule = ctx.constitution.hard_fanout
    for dependent, target, budget in view.softened:
        effects.rule(
            RULE_SOFTEN,
            f"{dependent} requires {target}: hard beyond {budget}, "
            f"committed {rule.policy} for {rule.lease_sets} work sets",
        )


def _name_rehydrations(view: SetView, effects: _Effects) -> None:
    """The dependencies the [on_dependency] rule decided, named for the receipts."""
    for dependent, original, copied in view.rehydrated:
        effects.rule(
            RULE_REHYDRATE, f"{dependent} depends on retired {original}: rehydrated as {copied}"
        )


def _plan_commit_receipts(
    plan: Plan, ctx: Context, view: SetView, set_row: SetRow, passed: list[str], eff: _Effects
) -> Decision:
    """The review and the commit receipt, and the decision the caller gets."""
    set_id = view.closed.set_id
    seq = ctx.snapshot.boundary.seq
    writers = set_row["props"]["writer_ids"]
    receipts = plan.decided[set_id].receipts
    # A supersession a constitution rule made is named among the reasons and listed.
    ruled = {"rule_made": eff.rule_made} if eff.rule_made else {}
    passed = [*passed, *(f"rule: {rule}" for rule in eff.rules)]
    receipts.append(
        receipt(
            ctx,
            ctx.record_id(set_id, "review", ctx.serial(set_id)),
            ReceiptKind.REVIEW,
            set_id,
            decision=Outcome.COMMIT.value,
            reasons=passed,
            source_writer=writers,
            **ruled,
        )
    )
    commit_id = ctx.record_id(set_id, "commit")
    receipts.append(
        receipt(
            ctx,
            commit_id,
            ReceiptKind.COMMIT,
            set_id,
            decision=Outcome.COMMIT.value,
            source_writer=writers,
            allowed_effects=eff.effects,
            refused_effects=eff.not_executed,
            reasons=passed,
            state_revision=seq,
            changed_ids=eff.changed,
            content_digest=set_row["props"]["digest"],
            mode=_mode(view).value,
            **ruled,
        )
    )
    return Decision(
        outcome=Outcome.COMMIT,
        set_id=set_id,
        boundary_id=ctx.boundary_id,
        seq=seq,
        proposal_ids=tuple(p.id for p in view.closed.proposals),
        entry_ids=tuple(i for _, i, _ in view.entries),
        receipt_id=commit_id,
        constitution_version=ctx.constitution.version,
        not_executed=tuple(eff.not_executed),
        rule_made=tuple(eff.rule_made),
    )
