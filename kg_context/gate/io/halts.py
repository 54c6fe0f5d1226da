"""Operators resolve halts: approve (the halting predicate is waived for this set), reject (the set
is rejected), or amend (a new constitution is proposed as a governed set, and the set is decided
again under it, in the same transaction: all of it commits or nothing does). Only an operator
the boundary's current constitution names may resolve: anyone else gets an
``AuthorizationError`` and nothing is written. Every resolution writes a receipt with
who, when and why (and, for an approval, what the set declared but could not execute:
``not_executed``), and records how long the halt stayed open (operator resolution time is a
metric)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import AuthorizationError, InputValidationError, StateError
from kg_context.gate.io.boundary_state import BoundaryState
from kg_context.gate.io.operator_acts import require_operator
from kg_context.gate.io.store import GateStore, now_iso
from kg_context.gate.pure.authority import operator_problem
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal, constitution_proposal
from kg_context.gate.pure.decision import Decision
from kg_context.gate.pure.rows import receipt_row
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.vocabulary import HaltStatus, Outcome, ReasonCode, ReceiptKind, ResolutionKind

__all__ = ["HaltRecord", "HaltView", "HaltedSet", "Halts", "Resolution"]


@dataclass(frozen=True, slots=True)
class HaltRecord:
    """One halt, as ``halts/list`` and ``halts/get`` read it (the same columns): the set it holds,
    its typed reason with the detail and the amendment that would cover it, when it opened, the
    constitution version and boundary seq it halted at, the threshold it tripped on and the
    value measured (``None`` for a predicate that measures nothing), and, once resolved, how, by
    whom, when, why, and how long it stayed open."""

    id: str
    boundary_id: str
    set_id: str
    reason_code: str
    detail: str | None
    suggested_amendment: str | None
    status: str
    opened_at: str | None
    resolved_at: str | None
    resolution: str | None
    resolved_by: str | None
    resolution_seconds: float | None
    resolution_reason: str | None
    constitution_version: str
    at_seq: int | None
    parameter: str | None
    observed: float | None

    @classmethod
    def of(cls, row: Record) -> HaltRecord:
        return cls(**row)


@dataclass(frozen=True, slots=True)
class HaltedSet:
    """The set a halt is on (``halts/get``): halted until an operator resolves it (then ratified,
    with its seq, or rejected), with its writers, summary, proposals and declared targets."""

    id: str
    boundary_id: str
    status: str
    seq: int | None
    kind: str
    writer_id: str
    writer_ids: tuple[str, ...]
    summary: str
    closed_at: str
    explicit: bool
    digest: str
    proposal_ids: tuple[str, ...]
    targets: tuple[str, ...]
    fanout: int | None
    entry_count: int | None

    @classmethod
    def of(cls, row: Record) -> HaltedSet:
        return cls(
            **{
                **row,
                "explicit": bool(row["explicit"]),
                "writer_ids": tuple(row["writer_ids"] or ()),
                "proposal_ids": tuple(row["proposal_ids"] or ()),
                "targets": tuple(row["targets"] or ()),
            }
        )


@dataclass(frozen=True, slots=True)
class HaltView:
    """One halt, its set, and the set's proposals as they were submitted."""

    halt: HaltRecord
    set: HaltedSet
    proposals: list[Proposal]

    def as_dict(self) -> dict[str, Any]:
        """The halt, its set and its proposals as JSON-ready data (the one form the CLI's
        ``--json`` and the HTTP body carry)."""
        return {
            "halt": asdict(self.halt),
            "set": asdict(self.set),
            "proposals": [p.model_dump(mode="json", by_alias=True) for p in self.proposals],
        }


@dataclass(frozen=True, slots=True)
class Resolution:
    halt_id: str
    resolution: ResolutionKind
    decision: Decision | None
    constitution_decision: Decision | None = None

    def as_dict(self) -> dict[str, Any]:
        """The resolution and the decisions it made as JSON-ready data (the one form the CLI's
        ``--json`` and the HTTP body carry)."""
        changed = self.constitution_decision
        return {
            "halt_id": self.halt_id,
            "resolution": ResolutionKind(self.resolution).value,
            "decision": self.decision.as_dict() if self.decision is not None else None,
            "constitution_decision": changed.as_dict() if changed is not None else None,
        }


class Halts:
    def __init__(self, executor: QueryExecutor, store: GateStore) -> None:
        self._executor = executor
        self._store = store

    def list(
        self, boundary_id: str | None = None, status: str | None = HaltStatus.OPEN, limit: int = 100
    ) -> list[HaltRecord]:
        """Halts, newest first: of one boundary (or all), with one status (``None``: any)."""
        rows = self._executor.read(
            "halts/list", boundary_id=boundary_id, status=status, limit=limit
        )
        return [HaltRecord.of(row) for row in rows]

    def show(self, halt_id: str) -> HaltView:
        rows = self._executor.read("halts/get", halt_id=halt_id)
        return _view(rows, halt_id)

    def resolve(
        self,
        halt_id: str,
        resolution: ResolutionKind | str,
        *,
        operator_id: str,
        reason: str,
        amendment: str | None = None,
    ) -> Resolution:
        if not operator_id or not reason.strip():
            raise InputValidationError(
                "a resolution names its operator and gives a reason", halt_id=halt_id
            )
        try:
            resolution = ResolutionKind(resolution)
        except ValueError:
            choices = ", ".join(k.value for k in ResolutionKind)
            raise InputValidationError(
                f"a resolution is one of {choices}, not {resolution!r}",
                halt_id=halt_id,
                writer_id=operator_id,
            ) from None
        current = self.show(halt_id)
        boundary_id = current.halt.boundary_id
        if current.halt.status != HaltStatus.OPEN:
            raise StateError(
                f"halt {halt_id} is {current.halt.status}, not open",
                **_halt_context(current),
                writer_id=operator_id,
            )
        constitution_for = self._store.constitution_for
        require_operator(
            self._executor,
            constitution_for,
            boundary_id,
            operator_id,
            f"resolving {halt_id}",
            halt_id=halt_id,
        )
        if resolution == ResolutionKind.REJECT:
            self._reject(current, operator_id, reason)
            return Resolution(halt_id, ResolutionKind.REJECT, None)
        if resolution == ResolutionKind.AMEND:
            if not amendment:
                raise InputValidationError(
                    "an amendment needs the new constitution's TOML",
                    boundary_id=boundary_id,
                    halt_id=halt_id,
                    writer_id=operator_id,
                )
            return self._amend(current, operator_id, reason, amendment)

        def resolve_halt(tx: Transaction, decisions: list[Decision]) -> None:
            not_executed = [n for d in decisions for n in d.not_executed]
            self._close_halt(tx, current, resolution, operator_id, reason, not_executed)

        decisions = self._store.decide_sets(
            boundary_id,
            f"operator:{operator_id}",
            _halted_set(halt_id, operator_id, constitution_for),
            waive=frozenset({current.halt.reason_code}),
            extra_writes=resolve_halt,
        )
        return Resolution(halt_id, resolution, decisions[0])

    def _amend(
        self, current: HaltView, operator_id: str, reason: str, amendment: str
    ) -> Resolution:
        """The amendment and the halted set decided again under it, in ONE transaction: when
        deciding the set fails (the new constitution no longer names the operator, the halt was
        resolved meanwhile), nothing of the act is written, the amendment included. An
        amendment the gate refuses is recorded (its rejection) and the halt stays open."""
        halt_id, boundary_id = current.halt.id, current.halt.boundary_id
        proposal = constitution_proposal(boundary_id, operator_id, amendment, reason)
        gateway = f"operator:{operator_id}"

        def resolve_halt(tx: Transaction, decisions: list[Decision]) -> None:
            not_executed = [n for d in decisions for n in d.not_executed]
            self._close_halt(tx, current, ResolutionKind.AMEND, operator_id, reason, not_executed)

        def work(tx: Transaction) -> tuple[Decision, list[Decision]]:
            change = self._store.change_constitution_in(tx, proposal, gateway)
            if change.decision.outcome != Outcome.COMMIT:
                return change.decision, []
            ratified = change.ratified

            def constitution_for(version: str) -> Constitution:
                if ratified is not None and version == ratified.version:
                    return ratified  # ratified by this transaction: not in the registry yet
                return self._store.constitution_for(version)

            sets = _halted_set(halt_id, operator_id, constitution_for)
            decisions = self._store.redecide_in(
                tx, boundary_id, gateway, sets, frozenset(), resolve_halt, under=ratified
            )
            return change.decision, decisions

        constitution_decision, decisions = self._executor.write_tx(work)
        if constitution_decision.outcome != Outcome.COMMIT:
            raise StateError(
                f"the amendment was not ratified ({constitution_decision.reason_code}: "
                f"{constitution_decision.detail}); halt {halt_id} stays open",
                boundary_id=boundary_id,
                halt_id=halt_id,
                reason_code=constitution_decision.reason_code,
                proposal_id=proposal.id,
                writer_id=operator_id,
            )
        return Resolution(halt_id, ResolutionKind.AMEND, decisions[0], constitution_decision)

    def _reject(self, current: HaltView, operator_id: str, reason: str) -> None:
        def work(tx: Transaction) -> None:
            rows = tx.run("gate/lock_boundary", boundary_id=current.halt.boundary_id)
            constitution = self._store.constitution_for(rows[0]["constitution_version"])
            if operator_problem(constitution, operator_id) is not None:
                raise AuthorizationError(
                    f"resolving {current.halt.id} refused: {operator_id}",
                    **_halt_context(current),
                    reason_code=ReasonCode.NOT_OPERATOR.value,
                    writer_id=operator_id,
                )
            view = _view(tx.run("halts/get", halt_id=current.halt.id), current.halt.id)
            if view.halt.status != HaltStatus.OPEN:
                raise StateError(
                    f"halt {current.halt.id} was resolved meanwhile",
                    **_halt_context(view),
                    writer_id=operator_id,
                )
            tx.run("halts/reject_set", boundary_id=view.set.boundary_id, set_id=view.set.id)
            self._close_halt(tx, view, ResolutionKind.REJECT, operator_id, reason)

        self._executor.write_tx(work)

    def _close_halt(
        self,
        tx: Transaction,
        view: HaltView,
        resolution: ResolutionKind,
        operator_id: str,
        reason: str,
        not_executed: Sequence[str] = (),
    ) -> None:
        now = now_iso()
        rows = tx.run(
            "halts/resolve",
            halt_id=view.halt.id,
            now=now,
            resolution=resolution,
            operator_id=operator_id,
            reason=reason,
        )
        if not rows:
            raise StateError(
                f"halt {view.halt.id} is not open", **_halt_context(view), writer_id=operator_id
            )
        row = receipt_row(
            f"{view.halt.id}/resolution",
            ReceiptKind.REJECTION
            if resolution == ResolutionKind.REJECT
            else ReceiptKind.RESOLUTION,
            at=now,
            boundary_id=view.halt.boundary_id,
            set_id=view.set.id,
            constitution_version=view.halt.constitution_version,
            constitution_sha256=self._store.constitution_for(view.halt.constitution_version).sha256,
            gateway_id=f"operator:{operator_id}",
            halt_id=view.halt.id,
            decision=resolution.value,
            operator_id=operator_id,
            reason=reason,
            reason_code=view.halt.reason_code,
            resolution_seconds=rows[0]["resolution_seconds"],
            not_executed=list(not_executed),
        )
        tx.run("gate/write_receipts", boundary_id=view.halt.boundary_id, receipts=[row])


def _halted_set(
    halt_id: str, operator_id: str, constitution_for: Callable[[str], Constitution]
) -> Callable[[Transaction], list[ClosedSet]]:
    """The halted set, read under the boundary's lock, once the halt is still open and the
    operator still named by the boundary's constitution (``constitution_for`` reads it)."""

    def closed_sets(tx: Transaction) -> list[ClosedSet]:
        view = _view(tx.run("halts/get", halt_id=halt_id), halt_id)
        if view.halt.status != HaltStatus.OPEN:
            raise StateError(
                f"halt {halt_id} was resolved meanwhile",
                **_halt_context(view),
                writer_id=operator_id,
            )
        boundary_id = view.halt.boundary_id
        _authorized(tx, constitution_for, boundary_id, operator_id, halt_id)
        return [ClosedSet(view.set.id, view.set.explicit, tuple(view.proposals))]

    return closed_sets


def _authorized(
    tx: Transaction,
    constitution_for: Callable[[str], Constitution],
    boundary_id: str,
    operator_id: str,
    halt_id: str,
) -> None:
    """The operator check again, under the boundary's lock (the constitution may have changed)."""
    state = BoundaryState.of(tx.run("boundary/get", boundary_id=boundary_id)[0])
    problem = operator_problem(constitution_for(state.constitution_version), operator_id)
    if problem is not None:
        raise AuthorizationError(
            f"resolving {halt_id} refused: {problem}",
            boundary_id=boundary_id,
            halt_id=halt_id,
            reason_code=ReasonCode.NOT_OPERATOR.value,
            writer_id=operator_id,
        )


def _halt_context(view: HaltView) -> dict[str, str | None]:
    """What a halt's error is about: its boundary, the halt and its set."""
    return {
        "boundary_id": view.halt.boundary_id,
        "halt_id": view.halt.id,
        "set_id": view.set.id,
    }


def _view(rows: list[Record], halt_id: str) -> HaltView:
    if not rows:
        raise StateError(f"no halt {halt_id}", halt_id=halt_id)
    row = rows[0]
    proposals = [Proposal.model_validate(json.loads(p)) for p in row["payloads"]]
    return HaltView(
        halt=HaltRecord.of(row["halt"]), set=HaltedSet.of(row["set"]), proposals=proposals
    )
