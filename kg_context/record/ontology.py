"""Ontology evolution: a class change is a governed set.

An operator's ``split`` or ``new_class`` puts the old class's standing entries (and their direct
dependents) at risk, naming the change as their failed ancestor; each leaves ``at_risk`` only
through a governed ``migrate`` or revalidation set.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kg_context.db.executor import QueryExecutor
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import (
    DELIBERATIVE_CLASSES,
    EntryClass,
    EntryProposal,
    EntryStatus,
    Proposal,
    Transition,
    WriterKind,
)
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import (
    STANDING_STATUSES,
    JustificationCase,
    SetKind,
    as_values,
)

__all__ = ["OntologyChange", "OntologyDecision", "change", "migrate"]

Op = Literal["split", "new_class"]
# Density: a migration set declares one DERIVED_FROM per moved entry; stay under max_set_fanout.
DEFAULT_BATCH = 32


@dataclass(frozen=True, slots=True)
class OntologyChange:
    op: Op
    source: str
    into: tuple[str, ...]

    def check(self) -> None:
        if self.op == "split" and (len(self.into) < 2 or len(set(self.into)) != len(self.into)):
            raise InputValidationError("a split names two or more distinct classes to split into")
        if self.op == "new_class" and (len(self.into) != 1 or self.into[0] == self.source):
            raise InputValidationError("a new class names one class other than the source")

    def describe(self) -> str:
        return f"{self.op} {self.source} -> {' | '.join(self.into)}"


@dataclass(frozen=True, slots=True)
class OntologyDecision:
    decision: Decision
    change_entry_id: str
    at_risk: tuple[str, ...]
    dependents: tuple[str, ...] = ()  # standing dependents put at risk with them (one hop)


def change(
    boundary: Boundary,
    op: Op,
    source: EntryClass | str,
    into: Sequence[EntryClass | str],
    *,
    reason: str,
    operator_id: str,
) -> OntologyDecision:
    """Declare an ontology change as one operator set; standing entries of ``source``, and the
    standing entries that depend on them (one hop), go at_risk with the change as their failed
    ancestor. Every class is built in or declared by the boundary's constitution."""
    if not reason.strip() or not operator_id:
        raise InputValidationError(
            "an ontology change names its operator and gives a reason", boundary_id=boundary.id
        )
    constitution = boundary.constitution()
    declared = OntologyChange(
        op, _cls(source, constitution), tuple(_cls(c, constitution) for c in into)
    )
    declared.check()
    executor, boundary_id = boundary.executor, boundary.id
    rows = executor.read(
        "ontology/standing_of_class",
        boundary_id=boundary_id,
        entry_class=declared.source,
        standing=as_values(STANDING_STATUSES - {EntryStatus.AT_RISK}),
    )
    moved = tuple(r["id"] for r in rows)
    dependents = tuple(
        r["id"]
        for r in executor.read(
            "ontology/dependents",
            ids=list(moved),
            boundary_id=boundary_id,
            standing=as_values(STANDING_STATUSES - {EntryStatus.AT_RISK}),
        )
    )
    state = executor.read("boundary/get", boundary_id=boundary_id)
    if not state:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    identity = f"{declared.describe()}\n{reason}\n{operator_id}\n{state[0]['seq']}"
    set_id = f"{boundary_id}/ontology/{hashlib.sha256(identity.encode()).hexdigest()[:16]}"
    entry_id = f"{set_id}#change"
    body = json.dumps(
        {
            "op": declared.op,
            "source": declared.source,
            "into": list(declared.into),
            "reason": reason,
        },
        sort_keys=True,
    )
    ontology_entry = EntryProposal.model_validate(
        {
            "id": entry_id,
            "class": "pin",
            "key": f"ontology/{declared.source}",
            "body": body,
            "attributes": {
                "op": declared.op,
                "source": declared.source,
                "into": ",".join(declared.into),
            },
        }
    )
    transitions = tuple(
        Transition(
            entry_id=i,
            to=EntryStatus.AT_RISK,
            reason=f"ontology change: {declared.describe()}",
            case=JustificationCase.ONTOLOGY,
            failed_ancestors=(entry_id,),
            justification=(f"ontology change {entry_id}: {declared.describe()}",),
        )
        for i in moved
    ) + tuple(
        Transition(
            entry_id=i,
            to=EntryStatus.AT_RISK,
            reason=f"depends on an entry the ontology change {declared.describe()} re-classes",
            case=JustificationCase.ONTOLOGY,
            failed_ancestors=(entry_id,),
            justification=(f"a dependency's class is under ontology change {entry_id}",),
        )
        for i in dependents
    )
    proposal = Proposal(
        id=set_id,
        boundary_id=boundary_id,
        writer_id=operator_id,
        writer_kind=WriterKind.OPERATOR,
        set_id=set_id,
        entries=(ontology_entry,),
        transitions=transitions,
        summary=(
            f"ontology {declared.describe()}: {len(moved)} entries and {len(dependents)} "
            f"dependents at risk ({reason})"
        )[:2000],
        kind=SetKind.ONTOLOGY,
    )
    decision = boundary.commit(proposal)
    if decision.outcome != "commit":
        return OntologyDecision(decision, entry_id, ())
    return OntologyDecision(decision, entry_id, moved, dependents)


def migrate(
    boundary: Boundary,
    change_entry_id: str,
    moves: Mapping[str, EntryClass | str],
    *,
    reason: str,
    writer_id: str,
    writer_kind: WriterKind = WriterKind.OPERATOR,
    batch: int = DEFAULT_BATCH,
) -> list[Decision]:
    """Move at-risk entries of the changed class to their declared new classes, through governed
    sets of at most ``batch`` entries: a new entry per move, the old one retired."""
    if not moves:
        raise InputValidationError(
            "a migration names at least one entry and its new class",
            boundary_id=boundary.id,
            entry_id=change_entry_id,
        )
    if batch < 1:
        raise InputValidationError(
            "batch must be at least 1", boundary_id=boundary.id, entry_id=change_entry_id
        )
    executor, boundary_id = boundary.executor, boundary.id
    declared = _change_of(executor, boundary_id, change_entry_id)
    constitution = boundary.constitution()
    targets = {old: _cls(new, constitution) for old, new in moves.items()}
    rows = executor.read("ontology/entries", ids=sorted(targets), boundary_id=boundary_id)
    found = {r["id"]: r for r in rows}
    for old, new in sorted(targets.items()):
        row = found.get(old)
        if row is None:
            raise StateError(
                f"no entry {old} in boundary {boundary_id}",
                boundary_id=boundary_id,
                entry_id=old,
                writer_id=writer_id,
            )
        if row["status"] != EntryStatus.AT_RISK.value or row["class"] != declared.source:
            raise StateError(
                f"{old} is a {row['status']} {row['class']}; migration moves at-risk "
                f"{declared.source} entries",
                boundary_id=boundary_id,
                entry_id=old,
                writer_id=writer_id,
            )
        if new not in declared.into:
            raise StateError(
                f"{declared.describe()} does not name class {new}",
                boundary_id=boundary_id,
                entry_id=old,
                writer_id=writer_id,
            )
    ordered = sorted(targets.items())
    decisions = []
    for start in range(0, len(ordered), batch):
        chunk = ordered[start : start + batch]
        proposal = _migration(boundary_id, change_entry_id, chunk, found, reason, writer_id)
        proposal = proposal.model_copy(update={"writer_kind": WriterKind(writer_kind)})
        decisions.append(boundary.commit(proposal))
    return decisions


def _migration(
    boundary_id: str,
    change_entry_id: str,
    chunk: list[tuple[str, str]],
    found: dict[str, dict[str, object]],
    reason: str,
    writer_id: str,
) -> Proposal:
    identity = "\n".join([change_entry_id, reason, writer_id, *(f"{o}>{n}" for o, n in chunk)])
    set_id = f"{boundary_id}/migration/{hashlib.sha256(identity.encode()).hexdigest()[:16]}"
    entries = []
    transitions = []
    for old, new in chunk:
        row = found[old]
        new_id = f"{old}@{new}"
        entries.append(
            EntryProposal.model_validate(
                {
                    "id": new_id,
                    "class": new,
                    "key": row["key"],
                    "body": row["body"] or "",
                    "verse": row["verse"] or "local",
                    "derived_from": [{"entry_id": old, "essential": True}],
                    "superseded_by_default": new in DELIBERATIVE_CLASSES,
                    "attributes": {
                        "migrated_from": old,
                        "ontology": change_entry_id,
                        "source": "ontology-migration",
                    },
                }
            )
        )
        transitions.append(
            Transition(
                entry_id=old,
                to=EntryStatus.RETIRED,
                resident=False,
                reason=f"migrated to {new} as {new_id}: {reason}"[:2000],
                case=JustificationCase.MIGRATION,
                justification=(f"migrated to {new_id}", f"ontology change {change_entry_id}"),
            )
        )
    return Proposal(
        id=set_id,
        boundary_id=boundary_id,
        writer_id=writer_id,
        writer_kind=WriterKind.OPERATOR,
        set_id=set_id,
        entries=tuple(entries),
        transitions=tuple(transitions),
        revalidates=(change_entry_id,),
        summary=f"migration under {change_entry_id}: {len(chunk)} entries re-classed"[:2000],
        kind=SetKind.MIGRATION,
    )


def _change_of(executor: QueryExecutor, boundary_id: str, change_entry_id: str) -> OntologyChange:
    rows = executor.read("ontology/entries", ids=[change_entry_id], boundary_id=boundary_id)
    if not rows or not str(rows[0]["key"]).startswith("ontology/"):
        raise StateError(
            f"no ontology change {change_entry_id} in boundary {boundary_id}",
            boundary_id=boundary_id,
            entry_id=change_entry_id,
        )
    body = json.loads(rows[0]["body"])
    return OntologyChange(body["op"], str(body["source"]), tuple(str(c) for c in body["into"]))


def _cls(value: EntryClass | str, constitution: Constitution) -> str:
    name = value.value if isinstance(value, EntryClass) else str(value)
    if not constitution.knows_class(name):
        known = [c.value for c in EntryClass] + sorted(constitution.classes)
        raise InputValidationError(
            f"unknown class {name!r}: neither built in nor declared by constitution "
            f"{constitution.version} ([classes.{name}] declares it, ratified by an operator); "
            f"classes are {', '.join(known)}"
        )
    return name
