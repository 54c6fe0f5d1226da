"""What one gate batch shares (pure): the ``Decision`` it returns per set (defined here for the
steps ``gate.pure.decision`` composes; exported by ``gate.pure.decision``), the ``Context`` every
step reads, and the receipt and set-node builders every outcome uses."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.feedback import decision_feedback
from kg_context.gate.pure.rows import Props, ReceiptRow, receipt_props, receipt_row
from kg_context.gate.pure.snapshot import Snapshot
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import Outcome, ReceiptKind, SetStatus

__all__ = [
    "CitedEntry",
    "Context",
    "constitution_receipt",
    "receipt",
    "record_id",
    "set_props",
]


def record_id(boundary_id: str, *parts: str | int) -> str:
    """The id of a record the gate derives (a halt, a receipt, an adoption): the boundary id,
    then the parts, joined by "/". Entry, set and proposal ids are unique only within their
    boundary; these stay unique across the database by construction, because the boundary part
    is escaped ("%" and "/" percent-encoded), so that no boundary id containing "/" and no set
    id can make one boundary's derived id equal another's. The one place that prefixes them."""
    escaped = boundary_id.replace("%", "%25").replace("/", "%2F")
    return "/".join([escaped, *(str(part) for part in parts)])


@dataclass(frozen=True, slots=True)
class CitedEntry:
    """An entry a refused set cites that does not stand where it was cited, as the gate read it
    in the commit transaction: ``status`` is the record's (``unknown``: no such entry in
    ``boundary_id``); ``cited_as`` the declaration (supersedes, requires, derived_from,
    transition, foundational); ``by`` the entry (or proposal) that cites it."""

    entry_id: str
    boundary_id: str
    status: str
    cited_as: str
    by: str


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
    # What an approved set declared but the gate could not execute (e.g. a supersession of an
    # entry that is not standing), named precisely; also on its commit and resolution receipts.
    not_executed: tuple[str, ...] = ()
    # For a refused set: what it cites that is unknown or not standing (read from the graph in
    # the commit transaction; empty on a decision read back from the record).
    not_standing: tuple[CitedEntry, ...] = ()
    # What a constitution rule decided in a committed set, each ``<rule>: <what>``: a
    # supersession ``[on_revision]`` made or ``[key_families]`` let cross keys (``<new id>
    # supersedes <old id>``), a dependency ``[on_dependency]`` rehydrated; also on its receipts
    # (``rule_made``).
    rule_made: tuple[str, ...] = ()

    def feedback(self) -> str:
        """A short text for the model that wrote the set: what committed, or why not, which
        cited ids are not standing and how to bring them back, and what the operator would
        have to amend (``gate.pure.feedback``)."""
        return decision_feedback(self)

    def as_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data: the one form the CLI's ``--json``, the HTTP body
        (``DecisionOut``) and the MCP ``propose`` result all carry, with its ``feedback``."""
        return {
            "outcome": Outcome(self.outcome).value,
            "set_id": self.set_id,
            "boundary_id": self.boundary_id,
            "seq": self.seq,
            "proposal_ids": list(self.proposal_ids),
            "entry_ids": list(self.entry_ids),
            "receipt_id": self.receipt_id,
            "constitution_version": self.constitution_version,
            "reason_code": self.reason_code,
            "detail": self.detail,
            "suggested_amendment": self.suggested_amendment,
            "halt_id": self.halt_id,
            "replayed": self.replayed,
            "not_executed": list(self.not_executed),
            "not_standing": [asdict(c) for c in self.not_standing],
            "rule_made": list(self.rule_made),
            "feedback": self.feedback(),
        }


@dataclass(frozen=True, slots=True)
class Context:
    """What every step of one gate batch shares: the snapshot it updates, the constitution it
    runs under, the time, the gateway, the serial of a set's next review/halt, and the reason
    codes an operator waived (an approval re-decides one halted set with its halt waived)."""

    snapshot: Snapshot
    constitution: Constitution
    now: str
    gateway_id: str
    serial: Callable[[str], int]
    waived: frozenset[str] = frozenset()

    @property
    def boundary_id(self) -> str:
        return self.snapshot.boundary.id

    def record_id(self, set_id: str, *parts: str | int) -> str:
        """A derived id for one of this boundary's sets (``<boundary>/<set>/halt/1``)."""
        return record_id(self.boundary_id, set_id, *parts)


def receipt(
    ctx: Context, receipt_id: str, kind: ReceiptKind, set_id: str, **fields: object
) -> ReceiptRow:
    """A receipt of this batch: under its constitution (version and digest), by its gateway."""
    return receipt_row(
        receipt_id,
        kind,
        at=ctx.now,
        boundary_id=ctx.boundary_id,
        set_id=set_id,
        constitution_version=ctx.constitution.version,
        constitution_sha256=ctx.constitution.sha256,
        gateway_id=ctx.gateway_id,
        **fields,
    )


def constitution_receipt(
    boundary_id: str, constitution: Constitution, *, ratified_by: str, at: str
) -> Props:
    """The receipt of the constitution a boundary is created with (its props; written with the
    boundary, ``FOR`` it): who ratified it, which version and text, like the commit receipt of a
    constitution change (``new_constitution_version`` / ``_sha256``, ``changed_ids``)."""
    effect = f"constitution:{constitution.version}"
    return receipt_props(
        record_id(boundary_id, "constitution", constitution.version),
        ReceiptKind.CONSTITUTION,
        at=at,
        boundary_id=boundary_id,
        set_id=None,
        constitution_version=constitution.version,
        constitution_sha256=constitution.sha256,
        gateway_id=ratified_by,
        ratified_by=ratified_by,
        source_writer=[ratified_by],
        decision=Outcome.COMMIT.value,
        reasons=["boundary_created"],
        allowed_effects=[effect],
        refused_effects=[],
        changed_ids=[effect],
        state_revision=0,
        content_digest=constitution.sha256,
        new_constitution_version=constitution.version,
        new_constitution_sha256=constitution.sha256,
    )


def _digest(proposals: Sequence[Proposal]) -> str:
    joined = "\n".join(sorted(p.digest() for p in proposals))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def set_props(ctx: Context, view: SetView, status: SetStatus) -> dict[str, object]:
    """The ``:Set`` node of a decided set (``seq`` and ``mode`` are set by the outcome)."""
    proposals = view.closed.proposals
    summaries = [p.summary for p in proposals if p.summary]
    return {
        "id": view.closed.set_id,
        "boundary_id": ctx.boundary_id,
        "status": status.value,
        "seq": None,
        "writer_id": proposals[0].writer_id,
        "writer_ids": sorted({p.writer_id for p in proposals}),
        "summary": " | ".join(summaries) if summaries else f"{len(proposals)} proposal(s)",
        "closed_at": ctx.now,
        "kind": proposals[0].kind.value,
        "explicit": view.closed.explicit,
        "digest": _digest(proposals),
        "proposal_ids": [p.id for p in proposals],
        # What the fragment group of later sets reads (``fragmentation``).
        "targets": sorted(view.closed.targets),
        "fanout": view.declared_fanout,
        # What its writers declared (the copies a rule made are the decision's, not the set's).
        "entry_count": len(view.entries) - len(view.rehydrated_copies),
    }
