"""A boundary handle: the Python API orchestrators use to propose into one coherence boundary.

Writers propose; only the gate commits. ``submit`` records proposals as pending, ``close`` runs
the set constructor and the gate over everything pending, and ``commit`` does both for one
proposal. Every operation on one boundary above the gate takes the handle as its receiver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kg_context.db.executor import QueryExecutor
from kg_context.errors import AuthorizationError, InputValidationError, StateError
from kg_context.gate.io.boundary_state import BoundaryState
from kg_context.gate.io.ledger_verify import LedgerVerification, verify_ledger
from kg_context.gate.io.operator_acts import require_operator
from kg_context.gate.io.proposal_records import recorded_decision
from kg_context.gate.io.revocation import (
    Revocation,
    RevocationSubject,
    credential_revoked,
    revocations,
    revoke,
)
from kg_context.gate.io.store import GateStore, Submission
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import (
    Proposal,
    WriterKind,
    constitution_proposal,
    parse_proposal,
)
from kg_context.gate.pure.decision import Decision
from kg_context.settings import EngineSettings
from kg_context.vocabulary import ReasonCode

__all__ = ["Boundary"]

ProposalInput = Proposal | dict[str, Any]


class Boundary:
    """One coherence boundary: submit proposals, close sets, read decisions.

    ``settings`` are the engine's (read once when it was constructed); ``constitution_for``
    reads a recorded constitution by version (the engine's registry).
    """

    def __init__(
        self,
        executor: QueryExecutor,
        store: GateStore,
        boundary_id: str,
        *,
        settings: EngineSettings,
        constitution_for: Callable[[str], Constitution],
    ) -> None:
        self._executor = executor
        self._store = store
        self.id = boundary_id
        self.gateway_id = f"gate:{boundary_id}"
        self.settings = settings
        self._constitution_for = constitution_for
        # Optional hook after a ratified constitution change, called with (this boundary, the old
        # constitution, the new one, the operator): the engine puts at risk what depended on a
        # class the change dropped.
        self.after_constitution: (
            Callable[[Boundary, Constitution, Constitution, str], object] | None
        ) = None

    @property
    def executor(self) -> QueryExecutor:
        return self._executor

    def _parse(self, proposal: ProposalInput) -> Proposal:
        parsed = parse_proposal(proposal)
        if parsed.boundary_id != self.id:
            raise InputValidationError(
                f"proposal {parsed.id} names boundary {parsed.boundary_id}, not {self.id}",
                boundary_id=self.id,
                proposal_id=parsed.id,
                writer_id=parsed.writer_id,
            )
        return parsed

    def submit(self, proposals: ProposalInput | Sequence[ProposalInput]) -> list[Submission]:
        """Record proposals as pending. Malformed input raises ``InputValidationError`` and
        nothing is stored; a known proposal id is a no-op that reports its status."""
        items = [proposals] if isinstance(proposals, Proposal | dict) else list(proposals)
        return self._store.submit(self.id, [self._parse(p) for p in items])

    def close(self) -> list[Decision]:
        """Construct the closed sets from everything pending and let the gate decide each."""
        return self._store.close(self.id, self.gateway_id)

    def commit(self, proposal: ProposalInput) -> Decision:
        """Submit one proposal, close, and return the decision of the set it landed in: one
        locked transaction records it and decides it with whatever else is pending (more if
        more is pending than a batch holds). A proposal decided before closes nothing: its
        recorded decision is returned."""
        parsed = self._parse(proposal)
        submission, decisions = self._store.commit(self.id, self.gateway_id, parsed)
        if not submission.new:
            return self._recorded(parsed.id)
        for decision in decisions:
            if parsed.id in decision.proposal_ids:
                return decision
        return self._recorded(parsed.id)  # another process's close decided it

    def commit_many(self, proposals: Sequence[ProposalInput]) -> list[Decision]:
        """Record many proposals and close, in one locked transaction (more if over the batch
        limit): the decisions of every set closed, in ledger order."""
        return self._store.close(self.id, self.gateway_id, [self._parse(p) for p in proposals])

    def propose_constitution(
        self,
        text: str,
        *,
        writer_id: str,
        reason: str,
        writer_kind: WriterKind = WriterKind.OPERATOR,
    ) -> Decision:
        """Change this boundary's constitution: a governed set, ratified only for an operator the
        current constitution names. Anyone else gets an ``AuthorizationError`` before anything is
        written (the gate checks again under the boundary's lock)."""
        if WriterKind(writer_kind) is not WriterKind.OPERATOR:
            raise AuthorizationError(
                f"a constitution change in boundary {self.id} is an operator's act; writer "
                f"{writer_id} claims kind {WriterKind(writer_kind).value}",
                boundary_id=self.id,
                reason_code=ReasonCode.NOT_OPERATOR.value,
                writer_id=writer_id,
            )
        require_operator(
            self._executor, self._constitution_for, self.id, writer_id, "constitution change"
        )
        before = self.constitution()
        proposal = constitution_proposal(self.id, writer_id, text, reason, writer_kind)
        decision = self._store.commit_constitution(proposal, self.gateway_id)
        hook = self.after_constitution
        if hook is not None and decision.outcome == "commit":
            hook(self, before, self.constitution(), writer_id)
        return decision

    def revoke(
        self,
        subject: RevocationSubject | str,
        subject_id: str,
        *,
        operator_id: str,
        reason: str,
    ) -> Revocation:
        """Revoke, as an operator this boundary's constitution names, a writer's registration, an
        adoption receipt of this boundary, an entry's foundational mark, or an API credential (its
        sha256): one revocation receipt, written under the boundary's lock
        (``kg_context.gate.io.revocation``). Anyone else gets an ``OperatorActRefused``."""
        return revoke(
            self._executor,
            self._constitution_for,
            self.id,
            subject,
            subject_id,
            operator_id=operator_id,
            reason=reason,
        )

    def revocations(self, subject: RevocationSubject | str | None = None) -> list[Revocation]:
        """This boundary's revocations, oldest first (of one subject kind, where given)."""
        return revocations(self._executor, self.id, subject)

    def credential_revoked(self, digest: str) -> bool:
        """Whether an operator of this boundary revoked the API credential with this sha256."""
        return credential_revoked(self._executor, self.id, digest)

    def decision(self, proposal_id: str) -> Decision | None:
        """What the record says was decided for a proposal (``None`` while it is pending)."""
        return recorded_decision(self._executor, self.id, proposal_id)

    def _recorded(self, proposal_id: str) -> Decision:
        decision = recorded_decision(self._executor, self.id, proposal_id)
        if decision is None:
            raise InputValidationError(
                f"proposal {proposal_id} is recorded but not decided yet",
                boundary_id=self.id,
                proposal_id=proposal_id,
            )
        return decision

    def state(self) -> BoundaryState:
        """The boundary node as the record holds it now (``StateError``: no such boundary)."""
        rows = self._executor.read("boundary/get", boundary_id=self.id)
        if not rows:
            raise StateError(f"no boundary {self.id}", boundary_id=self.id)
        return BoundaryState.of(rows[0])

    def verify_ledger(self, *, page: int = 500) -> LedgerVerification:
        """Recompute this boundary's tamper-evident ledger from the graph (reads only, ``page``
        sets per read): ``ok``, or the findings, the first record that differs first."""
        return verify_ledger(self._executor, self.id, page=page)

    def constitution(self) -> Constitution:
        """The boundary's current constitution, as the record holds it now."""
        return self._constitution_for(self.state().constitution_version)

    def constitution_at(self, version: str) -> Constitution:
        """A recorded constitution by version (read once per engine, then kept: versions are
        immutable), for a caller that read the boundary's version with something else."""
        return self._constitution_for(version)
