"""The compaction czar: a writer of its own (kind ``czar``) that proposes compaction sets.

It reads the boundary in Cypher and plans, in this order:

1. declared supersession not yet executed (append-only mode, approved declarations): the
   superseded entry is retired and leaves the window;
2. deliberative material past its lease: entries ``superseded_by_default`` whose key has a newer
   standing entry are retired; entries past ``expires_after`` lose their self-lease (step 4);
3. expired leases: soft/reconstructible edges whose lease ran out stop holding (reported, and
   named in the justification of what they no longer hold);
4. residency: standing entries that are resident but unreachable from the roots are retired
   (``retired`` where the status machine allows it, else only out of the window); reachable
   standing entries that are out of the window come back in; resident entries that are not
   standing leave the window;
5. interfaces: for an entry leaving (or already out of) the window that dependents which stay
   hold through soft edges with ``needs``, one ``:Interface`` entry holding only those
   properties, ``DERIVED_FROM`` and ``SUMMARIZES`` the original.

The plan is a ``Proposal`` of kind ``compaction`` submitted through ``Boundary.commit``: the
gate ratifies or halts it; the czar never writes the window. It skips entries it wrote itself
(independence; the constitution would reject them), and reports what it could not decide.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import InputValidationError
from kg_context.gate.boundary import Boundary
from kg_context.gate.constitution import Constitution
from kg_context.gate.contracts import EntryStatus, Proposal, Transition, WriterKind
from kg_context.gate.decision import Decision
from kg_context.gate.status_machine import is_legal
from kg_context.residency.reachability import (
    STANDING_STATUSES,
    Reachability,
    boundary_seq,
    compute_reachable,
)
from kg_context.settings import ResidencySettings

__all__ = ["CzarPlan", "CzarReport", "every_n_commits", "plan_compaction", "run_czar"]

_SKIP_PROPS = frozenset({"embedding"})
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
                "kind": "compaction",
                "transitions": [t.model_dump(mode="json") for t in moves],
                "summary": f"{len(moves)} compaction case(s) the czar cannot decide",
            }
        )

    def proposals(self, max_entries_per_set: int) -> list[Proposal]:
        """The compaction set(s): transitions in sets of at most 5,000, interfaces in sets of at
        most ``max_entries_per_set`` (each interface declares one edge: the density fan-out)."""
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
            body = json.dumps(
                {
                    "t": [t.model_dump(mode="json") for t in transitions],
                    "e": entries,
                },
                sort_keys=True,
            )
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
                        "kind": "compaction",
                        "entries": entries,
                        "transitions": [t.model_dump(mode="json") for t in transitions],
                        "summary": (
                            f"compaction at seq {self.seq}: {retired} retired, "
                            f"{len(transitions) - retired} residency change(s), "
                            f"{len(entries)} interface(s), "
                            f"{len(self.expired_leases)} expired lease(s)"
                        ),
                    }
                )
            )
        return out


@dataclass(frozen=True, slots=True)
class CzarReport:
    """One czar run: its plan and the gate's decisions on the compaction sets."""

    plan: CzarPlan
    decisions: tuple[Decision, ...]

    @property
    def committed(self) -> bool:
        return all(d.outcome == "commit" for d in self.decisions)

    def summary(self) -> dict[str, Any]:
        p = self.plan
        return {
            "boundary_id": p.boundary_id,
            "czar_id": p.czar_id,
            "seq": p.seq,
            "retired": sorted(t.entry_id for t in p.transitions if t.to is EntryStatus.RETIRED),
            "window_out": sorted(
                t.entry_id for t in p.transitions if t.to is None and t.resident is False
            ),
            "window_in": sorted(t.entry_id for t in p.transitions if t.resident is True),
            "interfaces": [e["id"] for e in p.interfaces],
            "expired_leases": len(p.expired_leases),
            "skipped_own": p.skipped_own,
            "unclear": p.unclear,
            "decisions": [
                {
                    "set_id": d.set_id,
                    "outcome": d.outcome,
                    "seq": d.seq,
                    "reason_code": d.reason_code,
                }
                for d in self.decisions
            ],
        }


def _retire(entry_id: str, status: str, reason: str, justification: Sequence[str]) -> Transition:
    to = EntryStatus.RETIRED if is_legal(status, EntryStatus.RETIRED) else None
    return Transition(
        entry_id=entry_id,
        to=to,
        resident=False,
        reason=reason,
        justification=tuple(justification)[:256],
    )


def _property(name: str, props: dict[str, Any]) -> str | int | float | bool | None:
    """A needed property from the entry's own properties, else its attributes JSON."""
    value = props.get(name)
    if value is None:
        raw = props.get("attributes") or "{}"
        value = json.loads(raw).get(name) if isinstance(raw, str) else None
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, sort_keys=True)


def plan_compaction(
    executor: QueryExecutor,
    boundary_id: str,
    constitution: Constitution,
    *,
    settings: ResidencySettings,
    czar_id: str | None = None,
) -> CzarPlan:
    """Read the boundary and plan the compaction (no writes)."""
    czar_id = czar_id or settings.czar_id
    seq = boundary_seq(executor, boundary_id)
    standing = list(STANDING_STATUSES)
    plan = CzarPlan(boundary_id=boundary_id, czar_id=czar_id, seq=seq)
    rows = executor.read("residency/resident_entries", boundary_id=boundary_id, standing=standing)
    entries = {r["id"]: r for r in rows}
    planned: dict[str, Transition] = {}

    def add(entry_id: str, transition: Transition) -> None:
        entry = entries.get(entry_id)
        if entry_id in planned or entry is None:
            return
        if entry["writer_id"] == czar_id:
            plan.skipped_own.append(entry_id)
            return
        planned[entry_id] = transition

    # 1. declared supersession not yet executed
    for row in executor.read(
        "czar/unexecuted_supersessions", boundary_id=boundary_id, standing=standing
    ):
        if row["old_key"] != row["new_key"]:
            text = (
                f"{row['new_id']} declares it supersedes {row['old_id']} with another key "
                f"({row['new_key']!r} vs {row['old_key']!r})"
            )
            plan.unclear.append(f"{text}: halted to the operator")
            old = entries.get(row["old_id"])
            if old is not None and old["writer_id"] != czar_id:
                plan.unclear_transitions.append(
                    _retire(
                        row["old_id"],
                        old["status"],
                        "declared supersession across keys",
                        [f"UNCLEAR: {text}"],
                    )
                )
            continue
        entry = entries.get(row["old_id"])
        if entry is not None:
            edge = (
                f"SUPERSEDED: (:Entry {{id: {row['new_id']!r}}})-[:SUPERSEDES {{executed: false, "
                f"seq: {row['seq']}}}]->(:Entry {{id: {row['old_id']!r}}})"
            )
            add(
                row["old_id"],
                _retire(row["old_id"], entry["status"], "declared supersession executed", [edge]),
            )
    # 2. deliberative material superseded by default
    for row in executor.read(
        "czar/superseded_by_default", boundary_id=boundary_id, standing=standing
    ):
        entry = entries[row["old_id"]]
        fact = (
            f"DEFAULT_SUPERSEDED: key {row['key']!r} has newer {row['new_id']} "
            f"(seq {row['new_seq']})"
        )
        add(row["old_id"], _retire(row["old_id"], entry["status"], "superseded by default", [fact]))
    # 3. expired leases (facts for the justifications below)
    plan.expired_leases = executor.read(
        "czar/expired_leases",
        boundary_id=boundary_id,
        standing=standing,
        seq=seq,
        default_lease=settings.default_lease_sets,
    )
    expired_into: dict[str, list[str]] = {}
    for lease in plan.expired_leases:
        expired_into.setdefault(lease["to_id"], []).append(
            f"(:Entry {{id: {lease['from_id']!r}}})-[:REQUIRES {{policy: {lease['policy']!r}, "
            f"lease_until_seq: {lease['lease_until']}}}]->(this) expired at seq {seq}"
        )
    # 4. residency by reachability
    reach = compute_reachable(executor, boundary_id, constitution, seq=seq, settings=settings)
    for entry_id, entry in entries.items():
        should = entry_id in reach.resident
        is_standing = entry["status"] in STANDING_STATUSES
        if is_standing and entry["resident"] and not should:
            facts = [
                f"UNREACHABLE: no root path at seq {seq} "
                f"(roots: {', '.join(constitution_roots(constitution))})"
            ]
            reason = "unreachable from roots"
            expires = entry["expires_after_seq"]
            if expires is not None and expires <= seq:
                reason = "lease expired and unreachable from roots"
                facts.append(f"expires_after_seq {expires} <= seq {seq}")
            facts.extend(expired_into.get(entry_id, []))
            add(entry_id, _retire(entry_id, entry["status"], reason, facts))
        elif is_standing and not entry["resident"] and should:
            add(
                entry_id,
                Transition(
                    entry_id=entry_id,
                    resident=True,
                    reason="reachable from a root",
                    justification=(
                        f"REACHABLE: root path at seq {seq} (kg-context why {entry_id})",
                    ),
                ),
            )
        elif not is_standing and entry["resident"]:
            add(
                entry_id,
                Transition(
                    entry_id=entry_id,
                    resident=False,
                    reason=f"status {entry['status']} is not resident",
                    justification=(f"NOT_STANDING: status {entry['status']}",),
                ),
            )
    plan.transitions = [planned[k] for k in sorted(planned)]
    # 5. interfaces for what dependents that stay hold through soft edges naming needs
    plan.interfaces = _interfaces(executor, plan, reach, planned, czar_id)
    return plan


def constitution_roots(constitution: Constitution) -> list[str]:
    return [c.value for c in constitution.roots.classes]


def _interfaces(
    executor: QueryExecutor,
    plan: CzarPlan,
    reach: Reachability,
    planned: dict[str, Transition],
    czar_id: str,
) -> list[dict[str, Any]]:
    leaving = sorted(k for k, t in planned.items() if t.resident is False)
    staying = sorted(reach.reached - set(leaving))
    if not staying:
        return []
    rows = executor.read(
        "czar/interface_candidates",
        dependent_ids=staying,
        retiring=leaving,
        standing=list(STANDING_STATUSES),
    )
    out = []
    for row in rows:
        if row["writer_id"] == czar_id:
            plan.skipped_own.append(row["id"])
            continue
        needs = sorted(set(row["needs"]))
        props = {k: v for k, v in row["props"].items() if k not in _SKIP_PROPS}
        values = {name: _property(name, props) for name in needs}
        missing = [name for name, value in values.items() if value is None]
        if missing:
            text = (
                f"{row['id']}: dependents {', '.join(row['holders'])} need "
                f"{', '.join(missing)}, which it does not carry; no interface can be built"
            )
            plan.unclear.append(f"{text}: halted to the operator")
            moved = planned.pop(row["id"], None)
            if moved is not None:
                plan.transitions = [t for t in plan.transitions if t.entry_id != row["id"]]
                plan.unclear_transitions.append(
                    moved.model_copy(update={"justification": (f"UNCLEAR: {text}",)})
                )
            continue
        body = "\n".join(f"{name}: {values[name]}" for name in needs)
        out.append(
            {
                "id": f"{row['id']}/interface",
                "class": "interface",
                "key": row["key"],
                "body": body,
                "derived_from": [{"entry_id": row["id"], "essential": True}],
                "attributes": values,
            }
        )
    return out


def run_czar(
    boundary: Boundary,
    *,
    settings: ResidencySettings | None = None,
    czar_id: str | None = None,
) -> CzarReport:
    """Plan the compaction of ``boundary`` under its current constitution and submit it through
    the gate. ``settings`` default to the handle's (the engine's)."""
    settings = settings or boundary.settings.residency
    constitution = boundary.constitution()
    plan = plan_compaction(
        boundary.executor, boundary.id, constitution, settings=settings, czar_id=czar_id
    )
    if plan.empty:
        return CzarReport(plan=plan, decisions=())
    decisions = []
    for proposal in plan.proposals(constitution.density.max_set_fanout):
        decision = boundary.commit(proposal)
        decisions.append(decision)
        if decision.outcome != "commit":
            break
    unclear = plan.unclear_proposal()
    if unclear is not None:
        decisions.append(boundary.commit(unclear))  # halts UNCLEAR_COMPACTION (once: same id)
    return CzarReport(plan=plan, decisions=tuple(decisions))


def every_n_commits(
    n: int, *, settings: ResidencySettings | None = None
) -> Callable[[Boundary, list[Decision]], None]:
    """A ``Boundary.after_commit`` hook that runs the czar whenever a commit crosses a multiple
    of ``n`` in the boundary's seq (its own compaction sets do not re-trigger it). ``settings``
    default to the handle's (the engine's)."""
    if n < 1:
        raise InputValidationError("the czar runs every n >= 1 commits")

    def hook(boundary: Boundary, decisions: list[Decision]) -> None:
        seqs = [d.seq for d in decisions if d.outcome == "commit" and d.seq is not None]
        if seqs and max(seqs) // n > (min(seqs) - 1) // n:
            run_czar(boundary, settings=settings)

    return hook
