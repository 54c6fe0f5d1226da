"""The czar's plan (reads only): what one compaction would propose, and why, in named steps:
unexecuted declared supersession, deliberative material past its lease, expired leases,
residency by reachability, and interfaces. Every transition cites its case and evidence; what the
czar cannot decide is planned as ``UNCLEAR``. All reads run in ONE read transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.db.reader import Reader, TransactionReader
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal, Transition
from kg_context.gate.pure.snapshot import follows_its_sources, own_work
from kg_context.gate.pure.status_machine import is_legal
from kg_context.residency.interfaces import plan_interfaces
from kg_context.residency.reachability import Reachability, boundary_clock, compute_reachable
from kg_context.residency.window_guard import guard_window, keep_hard_held
from kg_context.settings import ResidencySettings
from kg_context.vocabulary import (
    STANDING_STATUSES,
    EntryStatus,
    JustificationCase,
    SetKind,
    WriterKind,
    as_values,
)

__all__ = ["CzarPlan", "constitution_roots", "plan_compaction"]

# A proposal carries at most 10,000 transitions; the czar splits larger compactions.
_TRANSITIONS_PER_SET = 5_000


@dataclass(slots=True)
class CzarPlan:
    """What one czar run would propose, and why (pure data, before the gate)."""

    boundary_id: str
    czar_id: str
    seq: int
    transitions: list[Transition] = field(default_factory=list)
    interfaces: list[dict[str, Any]] = field(default_factory=list)
    expired_leases: list[Record] = field(default_factory=list)
    skipped_own: list[str] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)
    # What the czar cannot decide, proposed as its own set so the gate halts it to the operator.
    unclear_transitions: list[Transition] = field(default_factory=list)
    held: list[str] = field(default_factory=list)  # kept in: a staying entry holds it (hard)
    # Set when the guard kept a window this plan would have emptied (``window_guard``).
    warning: str | None = None
    work: int = 0  # the boundary's work seq (the lease clock) the plan was read at

    @property
    def empty(self) -> bool:
        return not self.transitions and not self.interfaces and not self.unclear_transitions

    def unclear_proposal(self) -> Proposal | None:
        """The cases the czar cannot decide, as one set the gate halts to the operator. Its id
        depends on the cases only (not the seq), so a later run re-finds the same halt."""
        if not self.unclear_transitions:
            return None
        moves = sorted(self.unclear_transitions, key=lambda t: t.entry_id)
        body = json.dumps([t.model_dump(mode="json") for t in moves], sort_keys=True)
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
        pid = f"{self.boundary_id}/czar/{self.czar_id}/unclear-{digest}"
        return Proposal.model_validate(
            {
                "id": pid,
                "boundary_id": self.boundary_id,
                "writer_id": self.czar_id,
                "writer_kind": WriterKind.CZAR.value,
                "set_id": pid,
                "kind": SetKind.COMPACTION.value,
                "transitions": [t.model_dump(mode="json") for t in moves],
                "summary": f"{len(moves)} compaction case(s) the czar cannot decide",
            }
        )

    def proposals(self, max_entries_per_set: int) -> list[Proposal]:
        """The compaction set(s): transitions in sets of at most 5,000, interfaces in sets of at
        most ``max_entries_per_set`` (each interface declares one edge: the density fan-out).
        Each proposal is a function of its id's parts only (seq, czar, what it moves and builds)."""
        size = max(1, max_entries_per_set)
        moves = [
            self.transitions[i : i + _TRANSITIONS_PER_SET]
            for i in range(0, len(self.transitions), _TRANSITIONS_PER_SET)
        ] or [[]]
        built = [self.interfaces[i : i + size] for i in range(0, len(self.interfaces), size)]
        chunks: list[tuple[list[Transition], list[dict[str, Any]]]] = [
            (moves[n] if n < len(moves) else [], built[n] if n < len(built) else [])
            for n in range(max(len(moves), len(built)))
        ]
        out = []
        for n, (transitions, entries) in enumerate(chunks):
            if not transitions and not entries:
                continue
            moved = [t.model_dump(mode="json") for t in transitions]
            body = json.dumps({"t": moved, "e": entries}, sort_keys=True)
            digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
            pid = f"{self.boundary_id}/czar/{self.czar_id}/{self.seq}/{n}-{digest}"
            retired = sum(1 for t in transitions if t.to is EntryStatus.RETIRED)
            out.append(
                Proposal.model_validate(
                    {
                        "id": pid,
                        "boundary_id": self.boundary_id,
                        "writer_id": self.czar_id,
                        "writer_kind": WriterKind.CZAR.value,
                        "set_id": pid,
                        "kind": SetKind.COMPACTION.value,
                        "entries": entries,
                        "transitions": moved,
                        # Only what the id names (the seq, the transitions and the interfaces):
                        # two czars planning the same compaction at one seq (the cadence in a
                        # writer's process, a manual run elsewhere) submit the same proposal,
                        # which the gate dedupes, never one id with two contents.
                        "summary": (
                            f"compaction at seq {self.seq}: {retired} retired, "
                            f"{len(transitions) - retired} residency change(s), "
                            f"{len(entries)} interface(s)"
                        ),
                    }
                )
            )
        return out


def _retire(
    entry_id: str, status: str, reason: str, case: JustificationCase, evidence: Sequence[str]
) -> Transition:
    to = EntryStatus.RETIRED if is_legal(status, EntryStatus.RETIRED) else None
    return Transition(
        entry_id=entry_id,
        to=to,
        resident=False,
        reason=reason,
        case=case,
        justification=tuple(evidence)[:256],
    )


@dataclass(slots=True)
class _Planner:
    """One czar run's working state: the resident candidates it read, and what it plans."""

    plan: CzarPlan
    entries: dict[str, Record]
    planned: dict[str, Transition] = field(default_factory=dict)
    undecided: dict[str, tuple[str, Transition | None]] = field(default_factory=dict)

    def add(self, entry_id: str, transition: Transition) -> None:
        """Plan one transition: the first case found for an entry wins; the czar's own entries
        are skipped (independence), but its interfaces follow their sources."""
        entry = self.entries.get(entry_id)
        if entry_id in self.planned or entry is None:
            return
        if own_work(entry, self.plan.czar_id) and not follows_its_sources(
            entry["class"], transition.case
        ):
            self.plan.skipped_own.append(entry_id)
            return
        self.planned[entry_id] = transition

    def unclear(self, entry_id: str, text: str, reason: str) -> None:
        """A case the czar cannot decide: reported, and proposed apart so that it halts (unless
        a mechanical case moves the entry anyway: see ``finish``)."""
        entry = self.entries.get(entry_id)
        move = None
        if entry is not None and not own_work(entry, self.plan.czar_id):
            move = _retire(entry_id, entry["status"], reason, JustificationCase.UNCLEAR, [text])
        self.undecided.setdefault(entry_id, (text, move))

    def finish(self) -> None:
        """The plan from what was found: mechanical transitions the status machine allows, and
        the unclear cases of entries no mechanical case moves (a run never proposes to move one
        entry twice: its compaction set would have moved it before the unclear set halts)."""
        self.planned = {
            k: t
            for k, t in self.planned.items()
            if t.to is None or is_legal(self.entries[k]["status"], t.to)
        }
        for entry_id, (text, move) in self.undecided.items():
            if entry_id in self.planned:
                continue
            self.plan.unclear.append(f"{text}: halted to the operator")
            if move is not None:
                self.plan.unclear_transitions.append(move)
        self.plan.transitions = [self.planned[k] for k in sorted(self.planned)]


def plan_compaction(
    executor: QueryExecutor,
    boundary_id: str,
    constitution: Constitution,
    *,
    settings: ResidencySettings,
    czar_id: str | None = None,
) -> CzarPlan:
    """Read the boundary and plan the compaction (no writes), in the steps the module names, all
    reads in one read transaction (one consistent snapshot)."""

    def work(tx: Transaction) -> CzarPlan:
        return _plan(TransactionReader(tx), boundary_id, constitution, settings, czar_id)

    return executor.read_tx(work)


def _plan(
    executor: Reader,
    boundary_id: str,
    constitution: Constitution,
    settings: ResidencySettings,
    czar_id: str | None,
) -> CzarPlan:
    seq, work = boundary_clock(executor, boundary_id)
    plan = CzarPlan(
        boundary_id=boundary_id, czar_id=czar_id or settings.czar_id, seq=seq, work=work
    )
    rows = executor.read(
        "residency/resident_entries",
        boundary_id=boundary_id,
        standing=as_values(STANDING_STATUSES),
    )[0]["entries"]
    planner = _Planner(plan, {r["id"]: r for r in rows})
    _plan_unexecuted_supersessions(executor, planner)
    _plan_default_superseded(executor, planner)
    expired_into = _plan_expired_leases(executor, planner, settings)
    reach = compute_reachable(executor, boundary_id, constitution, work=work, settings=settings)
    _plan_residency(planner, reach, expired_into, constitution)
    plan.held = keep_hard_held(executor, boundary_id, planner.planned)
    roots = constitution_roots(constitution)  # the guard first: what it keeps may be unclear
    plan.warning = guard_window(executor, boundary_id, planner.entries, planner.planned, roots)
    planner.finish()
    plan.interfaces = plan_interfaces(executor, plan, reach, planner.planned)
    return plan


def _plan_unexecuted_supersessions(executor: Reader, planner: _Planner) -> None:
    """Step 1: declared supersession not yet executed, whatever its superseder became: by a
    standing superseder of the same key it is executed; across keys, or by a superseder that is
    no longer standing, it is not mechanical."""
    for row in executor.read(
        "czar/unexecuted_supersessions",
        boundary_id=planner.plan.boundary_id,
        standing=as_values(STANDING_STATUSES),
    ):
        if row["new_status"] not in STANDING_STATUSES:
            text = (
                f"{row['new_id']} declares it supersedes {row['old_id']}, but {row['new_id']} "
                f"is {row['new_status']}"
            )
            planner.unclear(row["old_id"], text, "declared supersession by a non-standing entry")
            continue
        if row["old_key"] != row["new_key"]:
            text = (
                f"{row['new_id']} declares it supersedes {row['old_id']} with another key "
                f"({row['new_key']!r} vs {row['old_key']!r})"
            )
            planner.unclear(row["old_id"], text, "declared supersession across keys")
            continue
        entry = planner.entries.get(row["old_id"])
        if entry is not None:
            edge = (
                f"(:Entry {{id: {row['new_id']!r}}})-[:SUPERSEDES {{executed: false, "
                f"seq: {row['seq']}}}]->(:Entry {{id: {row['old_id']!r}}})"
            )
            planner.add(
                row["old_id"],
                _retire(
                    row["old_id"],
                    entry["status"],
                    "declared supersession executed",
                    JustificationCase.SUPERSEDED,
                    [edge],
                ),
            )


def _plan_default_superseded(executor: Reader, planner: _Planner) -> None:
    """Step 2: deliberative material superseded by default by a newer entry of its key."""
    for row in executor.read(
        "czar/superseded_by_default",
        boundary_id=planner.plan.boundary_id,
        standing=as_values(STANDING_STATUSES),
    ):
        entry = planner.entries[row["old_id"]]
        fact = f"key {row['key']!r} has newer {row['new_id']} (seq {row['new_seq']})"
        planner.add(
            row["old_id"],
            _retire(
                row["old_id"],
                entry["status"],
                "superseded by default",
                JustificationCase.DEFAULT_SUPERSEDED,
                [fact],
            ),
        )


def _plan_expired_leases(
    executor: Reader, planner: _Planner, settings: ResidencySettings
) -> dict[str, list[str]]:
    """Step 3: leases that ran out (reported, and named in what they no longer hold)."""
    plan = planner.plan
    plan.expired_leases = executor.read(
        "czar/expired_leases",
        boundary_id=plan.boundary_id,
        standing=as_values(STANDING_STATUSES),
        work=plan.work,
        default_lease=settings.default_lease_sets,
    )
    expired_into: dict[str, list[str]] = {}
    for lease in plan.expired_leases:
        expired_into.setdefault(lease["to_id"], []).append(
            f"(:Entry {{id: {lease['from_id']!r}}})-[:REQUIRES {{policy: {lease['policy']!r}, "
            f"lease_until_seq: {lease['lease_until']}}}]->(this) expired at work seq {plan.work}"
        )
    return expired_into


def _plan_residency(
    planner: _Planner,
    reach: Reachability,
    expired_into: dict[str, list[str]],
    constitution: Constitution,
) -> None:
    """Step 4: the window made equal to reachability: unreachable standing entries retire,
    reachable ones come back in, resident entries that are not standing leave."""
    seq = planner.plan.seq
    roots = ", ".join(constitution_roots(constitution))
    resident = reach.resident  # a union built once: per entry it made the plan quadratic
    for entry_id, entry in planner.entries.items():
        should = entry_id in resident
        is_standing = entry["status"] in STANDING_STATUSES
        if is_standing and entry["resident"] and not should:
            facts = [f"no root path at seq {seq} (roots: {roots})"]
            reason = "unreachable from roots"
            expires = entry["expires_after_seq"]
            if expires is not None and expires <= planner.plan.work:
                reason = "lease expired and unreachable from roots"
                facts.append(f"expires_after_seq {expires} <= work seq {planner.plan.work}")
            facts.extend(expired_into.get(entry_id, []))
            planner.add(
                entry_id,
                _retire(entry_id, entry["status"], reason, JustificationCase.UNREACHABLE, facts),
            )
        elif is_standing and not entry["resident"] and should:
            planner.add(
                entry_id,
                Transition(
                    entry_id=entry_id,
                    resident=True,
                    reason="reachable from a root",
                    case=JustificationCase.REACHABLE,
                    justification=(f"root path at seq {seq} (the why of {entry_id} shows it)",),
                ),
            )
        elif not is_standing and entry["resident"]:
            planner.add(
                entry_id,
                Transition(
                    entry_id=entry_id,
                    resident=False,
                    reason=f"status {entry['status']} is not resident",
                    case=JustificationCase.NOT_STANDING,
                    justification=(f"status {entry['status']}",),
                ),
            )


def constitution_roots(constitution: Constitution) -> list[str]:
    return constitution.root_class_names()
