"""Proposal records (pure helpers of the store): the row a proposal is recorded as, what a
submission found in the record, a decision read back from it (``replayed``), and a proposal
recorded inside an open transaction (``submit_in``)."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from kg_context.db.executor import QueryExecutor, Record, Transaction
from kg_context.errors import InputValidationError
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision
from kg_context.gate.pure.refusal import UnreadableProposal
from kg_context.vocabulary import Outcome, ProposalStatus

__all__ = [
    "Submission",
    "decision_from_record",
    "declared_operators",
    "declared_version",
    "parse_pending",
    "proposal_row",
    "recorded_decision",
    "submissions",
    "submit_in",
]


@dataclass(frozen=True, slots=True)
class Submission:
    proposal_id: str
    status: str  # pending | committed | halted | rejected
    set_id: str | None
    new: bool


def submissions(
    records: list[Record], digests: dict[str, str], boundary_id: str
) -> list[Submission]:
    """Check what the record holds for submitted ids: a known id must carry the same content."""
    if not records and digests:
        raise InputValidationError(
            f"boundary {boundary_id} does not exist", boundary_id=boundary_id
        )
    out = []
    for record in records:
        if record["digest"] != digests[record["id"]] or record["boundary_id"] != boundary_id:
            raise InputValidationError(
                f"proposal id {record['id']} is already recorded with other content; "
                "proposal ids are idempotency keys and are never reused",
                boundary_id=boundary_id,
                proposal_id=record["id"],
            )
        out.append(
            Submission(
                proposal_id=record["id"],
                status=record["status"],
                set_id=record["set_id"],
                new=record["status"] == ProposalStatus.PENDING,
            )
        )
    return out


def proposal_row(p: Proposal) -> dict[str, Any]:
    """A proposal as the record keeps it: its header and its canonical payload (``targets``
    only when it declares some: an empty string list costs a 128-byte record of its own, and
    the payload holds the targets either way)."""
    props: dict[str, Any] = {
        "id": p.id,
        "boundary_id": p.boundary_id,
        "writer_id": p.writer_id,
        "writer_kind": p.writer_kind.value,
        "declared_set_id": p.set_id,
        "kind": p.kind,
        "payload": p.payload(),
        "digest": p.digest(),
    }
    if p.targets:
        props["targets"] = list(p.targets)
    return {"id": p.id, "props": props}


def declared_version(text: str) -> str | None:
    """The ``version`` a TOML text declares, if it parses (the gate validates the rest)."""
    try:
        value = tomllib.loads(text).get("version")
    except tomllib.TOMLDecodeError:
        return None
    return value if isinstance(value, str) else None


def declared_operators(text: str) -> list[str]:
    """The ``[authority] operators`` a TOML text declares, where it parses (the gate validates
    the rest): the ids whose registration a constitution change reads."""
    try:
        authority = tomllib.loads(text).get("authority")
    except tomllib.TOMLDecodeError:
        return []
    named = authority.get("operators") if isinstance(authority, dict) else None
    return [w for w in named if isinstance(w, str)] if isinstance(named, list) else []


def decision_from_record(row: Record) -> Decision | None:
    status = row["set_status"]
    if status is None or row["receipt_id"] is None:
        return None
    outcome = Outcome.of_set_status(status)
    if outcome is None:
        return None
    return Decision(
        outcome=outcome,
        set_id=row["set_id"],
        boundary_id=row["boundary_id"],
        seq=row["seq"],
        proposal_ids=tuple(row["proposal_ids"] or ()),
        entry_ids=tuple(sorted(row["entry_ids"])),
        receipt_id=row["receipt_id"],
        constitution_version=row["constitution_version"],
        reason_code=row["reason_code"],
        detail=row["detail"],
        suggested_amendment=row["suggested_amendment"],
        halt_id=row["halt_id"],
        replayed=True,
    )


def _parsed(payload: str, row: Record, boundary_id: str) -> Proposal | str:
    """The proposal a recorded payload holds, or why it cannot be parsed into the proposal its
    record names (same id, boundary and digest)."""
    try:
        proposal = Proposal.model_validate(json.loads(payload))
    except (json.JSONDecodeError, ValidationError, TypeError) as err:
        return f"{type(err).__name__}: {str(err).splitlines()[0][:300]}"
    if (proposal.id, proposal.boundary_id, proposal.digest()) != (
        row["id"],
        boundary_id,
        row["digest"],
    ):
        return "it holds another proposal than its record names (id, boundary or digest differ)"
    return proposal


def parse_pending(
    tx: Transaction,
    boundary_id: str,
    rows: list[Record],
    known: Mapping[tuple[str, str], Proposal],
) -> tuple[list[Proposal], list[UnreadableProposal]]:
    """The pending proposals in submission order: those ``known`` (this process submitted them,
    same digest) from memory, the others parsed from their recorded payloads; and the ones whose
    payload cannot be parsed, which the gate rejects (they must not block the boundary)."""
    found: dict[str, Proposal] = {}
    for row in rows:
        proposal = known.get((boundary_id, row["id"]))
        if proposal is not None and proposal.digest() == row["digest"]:
            found[row["id"]] = proposal
    missing = [row for row in rows if row["id"] not in found]
    problems: dict[str, str] = {}
    if missing:
        by_id = {row["id"]: row for row in missing}
        payloads = tx.run("gate/proposal_payloads", boundary_id=boundary_id, ids=sorted(by_id))
        for record in payloads:
            parsed = _parsed(record["payload"] or "", by_id[record["id"]], boundary_id)
            if isinstance(parsed, Proposal):
                found[record["id"]] = parsed
            else:
                problems[record["id"]] = parsed
    unreadable: list[UnreadableProposal] = []
    if problems:
        for header in tx.run(
            "gate/proposal_headers", boundary_id=boundary_id, ids=sorted(problems)
        ):
            unreadable.append(
                UnreadableProposal(
                    id=header["id"],
                    writer_id=header["writer_id"] or "unknown",
                    digest=header["digest"] or "",
                    problem=problems[header["id"]],
                )
            )
    return [found[row["id"]] for row in rows if row["id"] in found], unreadable


def submit_in(tx: Transaction, proposal: Proposal, now: str) -> Decision | None:
    """Record a proposal inside an open transaction; if it was decided before, that decision."""
    rows = tx.run(
        "gate/submit_proposals",
        boundary_id=proposal.boundary_id,
        proposals=[proposal_row(proposal)],
        now=now,
    )
    if rows[0]["digest"] != proposal.digest():
        raise InputValidationError(
            f"proposal id {proposal.id} is already recorded with other content",
            boundary_id=proposal.boundary_id,
            proposal_id=proposal.id,
            writer_id=proposal.writer_id,
        )
    if rows[0]["status"] == ProposalStatus.PENDING:
        return None
    recorded = tx.run(
        "gate/decision_for_proposal",
        boundary_id=proposal.boundary_id,
        proposal_id=proposal.id,
    )
    return decision_from_record(recorded[0]) if recorded else None


def recorded_decision(
    executor: QueryExecutor, boundary_id: str, proposal_id: str
) -> Decision | None:
    """What the record says was decided for a proposal of one boundary (``None``: pending)."""
    rows = executor.read(
        "gate/decision_for_proposal", boundary_id=boundary_id, proposal_id=proposal_id
    )
    return decision_from_record(rows[0]) if rows else None
