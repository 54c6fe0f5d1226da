"""At risk is a halt: the revalidation queue an operator works through.

Every move of an entry to ``at_risk`` opens one queue item, read from the graph; the first later
set that moves it out resolves it. An operator resolves an item by ``revalidate``, ``retire`` or
``confirm``, each a governed set.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import InputValidationError, OperatorActRefused, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.halts import Halts, Resolution
from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.authority import operator_problem
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import EntryProposal, Proposal, Transition
from kg_context.gate.pure.decision import Decision
from kg_context.record.invalidation import invalidate
from kg_context.record.search import embed_committed
from kg_context.vocabulary import (
    STANDING_STATUSES,
    EntryStatus,
    JustificationCase,
    ReasonCode,
    ResolutionKind,
    SetKind,
    WriterKind,
    as_values,
)

__all__ = [
    "AtRiskAction",
    "AtRiskItem",
    "AtRiskResolution",
    "OperatorHalts",
    "QueueFigures",
    "at_risk_queue",
    "dropped_classes_at_risk",
    "queue_figures",
    "resolve_at_risk",
]


class AtRiskAction(StrEnum):
    REVALIDATE = "revalidate"
    RETIRE = "retire"
    CONFIRM = "confirm"


@dataclass(frozen=True, slots=True)
class AtRiskItem:
    """One item of the revalidation queue (see the module docstring)."""

    entry_id: str
    entry_class: str
    key: str
    status: str  # the entry's status now
    opened_by: str  # the set that moved it to at_risk
    opened_seq: int
    opened_at: str
    case: str | None
    failed_ancestors: tuple[str, ...]
    reason: str
    resolved_by: str | None
    resolved_seq: int | None
    resolved_at: str | None
    resolution: str | None  # the status it left at_risk for
    resolution_seconds: float | None

    @property
    def open(self) -> bool:
        return self.resolved_by is None

    @classmethod
    def of(cls, row: Record) -> AtRiskItem:
        return cls(
            entry_id=row["entry_id"],
            entry_class=row["class"],
            key=row["key"],
            status=row["status"],
            opened_by=row["opened_by"],
            opened_seq=int(row["opened_seq"]),
            opened_at=row["opened_at"],
            case=row["case"],
            failed_ancestors=tuple(row["failed_ancestors"]),
            reason=row["reason"],
            resolved_by=row["resolved_by"],
            resolved_seq=row["resolved_seq"],
            resolved_at=row["resolved_at"],
            resolution=row["resolution"],
            resolution_seconds=row["resolution_seconds"],
        )


@dataclass(frozen=True, slots=True)
class QueueFigures:
    """The revalidation queue's own figures (the gate's halt rate is separate)."""

    opened: int
    resolved: int
    mean_resolution_seconds: float | None
    max_resolution_seconds: float | None

    @property
    def open(self) -> int:
        return self.opened - self.resolved


@dataclass(frozen=True, slots=True)
class AtRiskResolution:
    entry_id: str
    action: AtRiskAction
    decision: Decision


def at_risk_queue(
    executor: QueryExecutor, boundary_id: str, *, status: str | None = "open", limit: int = 100
) -> list[AtRiskItem]:
    """The boundary's queue items, newest first: open ones, resolved ones, or (``None``) all."""
    if status not in (None, "open", "resolved"):
        raise InputValidationError(
            f"a queue status is open, resolved or None, not {status!r}", boundary_id=boundary_id
        )
    rows = executor.read("revalidation/queue", boundary_id=boundary_id, status=status, limit=limit)
    return [AtRiskItem.of(row) for row in rows]


def queue_figures(executor: QueryExecutor, boundary_id: str) -> QueueFigures:
    """Opened, resolved and time to resolution of the boundary's revalidation queue."""
    rows = executor.read("revalidation/figures", boundary_id=boundary_id)
    if not rows:
        raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
    row = rows[0]
    return QueueFigures(
        int(row["opened"]), int(row["resolved"]), row["mean_seconds"], row["max_seconds"]
    )


def resolve_at_risk(
    boundary: Boundary,
    entry_id: str,
    action: AtRiskAction | str,
    *,
    operator_id: str,
    reason: str,
) -> AtRiskResolution:
    """Resolve the open queue item of ``entry_id`` as an operator the boundary's constitution
    names (else ``OperatorActRefused``, nothing written): one governed set."""
    try:
        chosen = AtRiskAction(action)
    except ValueError:
        choices = ", ".join(a.value for a in AtRiskAction)
        raise InputValidationError(
            f"an at-risk resolution is one of {choices}",
            boundary_id=boundary.id,
            entry_id=entry_id,
            writer_id=operator_id,
        ) from None
    if not operator_id or not reason.strip():
        raise InputValidationError(
            "a resolution names its operator and gives a reason",
            boundary_id=boundary.id,
            entry_id=entry_id,
        )
    problem = operator_problem(boundary.constitution(), operator_id)
    if problem is not None:
        raise OperatorActRefused(
            f"resolving at-risk {entry_id} in boundary {boundary.id} refused: {problem}",
            code=ReasonCode.NOT_OPERATOR.value,
            fix="ask an operator the boundary's constitution names to resolve it",
            boundary_id=boundary.id,
            entry_id=entry_id,
            writer_id=operator_id,
        )
    rows = boundary.executor.read(
        "revalidation/open_item", boundary_id=boundary.id, entry_id=entry_id
    )
    if not rows or rows[0]["status"] != EntryStatus.AT_RISK:
        raise StateError(
            f"{entry_id} has no open at-risk item in boundary {boundary.id}",
            boundary_id=boundary.id,
            entry_id=entry_id,
            writer_id=operator_id,
        )
    opened_by, failed_ancestors = rows[0]["opened_by"], tuple(rows[0]["failed_ancestors"])
    if chosen is AtRiskAction.CONFIRM:
        blast = invalidate(boundary, entry_id, reason=reason, writer_id=operator_id)
        return AtRiskResolution(entry_id, chosen, blast.decision)
    to = EntryStatus.REVALIDATED if chosen is AtRiskAction.REVALIDATE else EntryStatus.RETIRED
    identity = f"{entry_id}\n{chosen}\n{opened_by}\n{operator_id}"
    set_id = f"{boundary.id}/revalidation/{hashlib.sha256(identity.encode()).hexdigest()[:16]}"
    proposal = Proposal(
        id=set_id,
        boundary_id=boundary.id,
        writer_id=operator_id,
        writer_kind=WriterKind.OPERATOR,
        set_id=set_id,
        transitions=(
            Transition(
                entry_id=entry_id,
                to=to,
                resident=False if to is EntryStatus.RETIRED else None,
                reason=f"at-risk {chosen.value}: {reason}"[:2000],
                justification=(f"at risk since set {opened_by}",),
            ),
        ),
        revalidates=failed_ancestors if to is EntryStatus.REVALIDATED else (),
        summary=f"operator {chosen.value}s at-risk {entry_id}: {reason}"[:2000],
    )
    return AtRiskResolution(entry_id, chosen, boundary.commit(proposal))


class OperatorHalts(Halts):
    """The operator's queue: the gate's halts (list, show, resolve) and the revalidation queue
    (``at_risk``, ``figures``, ``resolve_at_risk``); ``boundary_for`` opens an existing
    boundary's handle."""

    def __init__(
        self,
        executor: QueryExecutor,
        store: GateStore,
        boundary_for: Callable[[str], Boundary],
    ) -> None:
        super().__init__(executor, store)
        self._boundary_for = boundary_for

    def at_risk(
        self, boundary_id: str, status: str | None = "open", limit: int = 100
    ) -> list[AtRiskItem]:
        return at_risk_queue(
            self._executor_of(boundary_id), boundary_id, status=status, limit=limit
        )

    def figures(self, boundary_id: str) -> QueueFigures:
        return queue_figures(self._executor_of(boundary_id), boundary_id)

    def resolve_at_risk(
        self,
        boundary_id: str,
        entry_id: str,
        action: AtRiskAction | str,
        *,
        operator_id: str,
        reason: str,
    ) -> AtRiskResolution:
        return resolve_at_risk(
            self._boundary_for(boundary_id),
            entry_id,
            action,
            operator_id=operator_id,
            reason=reason,
        )

    def resolve(
        self,
        halt_id: str,
        resolution: ResolutionKind | str,
        *,
        operator_id: str,
        reason: str,
        amendment: str | None = None,
    ) -> Resolution:
        """``Halts.resolve``; an amendment that drops a root or declared class then puts what
        depended on it at risk, as a constitution change proposed directly does."""
        boundary_id = self.show(halt_id).halt.boundary_id
        before = self._boundary_for(boundary_id).constitution()
        done = super().resolve(
            halt_id, resolution, operator_id=operator_id, reason=reason, amendment=amendment
        )
        if done.decision is not None and done.decision.outcome == "commit":
            embed_committed(self._boundary_for(boundary_id))  # what the approved set wrote
        changed = done.constitution_decision
        if changed is not None and changed.outcome == "commit":
            boundary = self._boundary_for(boundary_id)
            dropped_classes_at_risk(boundary, before, boundary.constitution(), operator_id)
        return done

    def _executor_of(self, boundary_id: str) -> QueryExecutor:
        return self._boundary_for(boundary_id).executor


def dropped_classes_at_risk(
    boundary: Boundary, old: Constitution, new: Constitution, operator_id: str
) -> Decision | None:
    """After a constitution change: the standing entries of a class the new constitution no
    longer has as a root, or no longer declares, and their standing dependents (one hop), go at
    risk in one operator set naming the change as their failed ancestor (``None``: nothing
    depended on a dropped class)."""
    dropped = sorted(
        (set(old.root_class_names()) - set(new.root_class_names()))
        | (set(old.classes) - set(new.classes))
    )
    standing = as_values(STANDING_STATUSES - {EntryStatus.AT_RISK})
    moved: list[str] = []
    for name in dropped:
        moved += [
            r["id"]
            for r in boundary.executor.read(
                "ontology/standing_of_class",
                boundary_id=boundary.id,
                entry_class=name,
                standing=standing,
            )
        ]
    if not moved:
        return None
    dependents = [
        r["id"]
        for r in boundary.executor.read(
            "ontology/dependents", ids=moved, boundary_id=boundary.id, standing=standing
        )
    ]
    seq = boundary.state().seq
    set_id = f"{boundary.id}/constitution-drop/{new.version}/{seq}"
    change_id = f"{set_id}#change"
    what = f"constitution {old.version} -> {new.version} drops {', '.join(dropped)}"
    transitions = tuple(
        Transition(
            entry_id=entry_id,
            to=EntryStatus.AT_RISK,
            reason=(what if entry_id in moved else f"depends on an entry of which {what}")[:2000],
            case=JustificationCase.ONTOLOGY,
            failed_ancestors=(change_id,),
            justification=(f"{what} ({change_id})"[:2000],),
        )
        for entry_id in [*moved, *dependents]
    )
    proposal = Proposal(
        id=set_id,
        boundary_id=boundary.id,
        writer_id=operator_id,
        writer_kind=WriterKind.OPERATOR,
        set_id=set_id,
        entries=(
            EntryProposal.model_validate(
                {
                    "id": change_id,
                    "class": "fact",
                    "key": f"constitution/{new.version}",
                    "body": what,
                    "attributes": {
                        "source": "constitution-change",
                        "dropped": ",".join(dropped),
                        "from_version": old.version,
                        "to_version": new.version,
                    },
                }
            ),
        ),
        transitions=transitions,
        summary=f"{what}: {len(moved)} entries and {len(dependents)} dependents at risk"[:2000],
        kind=SetKind.ONTOLOGY,
    )
    return boundary.commit(proposal)
