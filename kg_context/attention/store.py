"""Every database call of workspace attention: named Cypher files under ``cypher/attention/``.

All writes of one wave go in one batched ``UNWIND`` statement; the track records of a wave's
specialists come from one batched read; an attention score is one indexed read. Reads take the
boundary they are scoped to (``None``: the global scope, across boundaries).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from kg_context.attention.models import (
    FAILURE_OUTCOMES,
    SUCCESS_OUTCOMES,
    ScoredProposal,
    WinnerOutcome,
)
from kg_context.db.executor import QueryExecutor
from kg_context.db.text_index import boundary_token
from kg_context.text.thoughts import thought_text
from kg_context.vocabulary import (
    FAILED_WORK,
    LIVE_STATUSES,
    ThoughtOutcome,
    WaveReason,
    as_values,
)

__all__ = ["AttentionStore"]

# A recorded proposal's thought outcome by ``selected``.
_OUTCOME = {True: ThoughtOutcome.WON.value, False: ThoughtOutcome.LOST.value}


class AttentionStore:
    """Reads and writes ProposalNodes through one executor (and its bookmarks)."""

    def __init__(self, executor: QueryExecutor) -> None:
        self.executor = executor

    def outcome_counts(
        self, specialist_ids: Sequence[str], window: int, boundary_id: str | None
    ) -> dict[str, tuple[int, int]]:
        """(successes, failures) over each specialist's last ``window`` selected proposals in
        ``boundary_id`` (``None``: in every boundary, the global scope)."""
        if not specialist_ids:
            return {}
        ids = list(specialist_ids)
        failures, successes = list(FAILURE_OUTCOMES), list(SUCCESS_OUTCOMES)
        failed = as_values(FAILED_WORK)
        if boundary_id is None:
            records = self.executor.read(
                "attention/track_records",
                specialist_ids=ids,
                window=window,
                failure_outcomes=failures,
                success_outcomes=successes,
                failed_statuses=failed,
            )
        else:
            records = self.executor.read(
                "attention/track_records_in_boundary",
                boundary_id=boundary_id,
                specialist_ids=ids,
                window=window,
                failure_outcomes=failures,
                success_outcomes=successes,
                failed_statuses=failed,
            )
        return {r["specialist_id"]: (int(r["successes"]), int(r["failures"])) for r in records}

    def write_wave(
        self,
        proposals: Iterable[ScoredProposal],
        boundary_id: str | None,
        reasons: Mapping[str, WaveReason],
    ) -> int:
        """Every proposal of a wave, winners and losers, with its Specialist and Task links,
        recorded for the boundary the wave ran for (``None``: no boundary), each a thought: its
        text (bounded, ``kg_context.text.thoughts``), won or lost, and ``reasons[id]``. Not
        stored again: the writer (``specialist_id`` is), the thought source (the label is) and an
        uncut text's digest (its text's)."""
        rows = [
            {
                **(kept := thought_text(p.text)).row(),
                "thought_outcome": (
                    ThoughtOutcome.WON if p.selected else ThoughtOutcome.LOST
                ).value,
                "thought_reason": reasons[p.id].value,
                "id": p.id,
                "specialist_id": p.specialist_id,
                "task_id": p.task_id,
                "wave_id": p.wave_id,
                "relevance": p.relevance,
                "track_record": p.track_record,
                "confidence": p.confidence,
                "confidence_source": p.confidence_source.value,
                "composite": p.composite,
                "selected": p.selected,
                "rank": p.rank,
                "at": p.at,
                # Only a cut text's: an uncut one's is the digest of its stored text.
                "digest": p.digest if kept.truncated else None,
            }
            for p in proposals
        ]
        if not rows:
            return 0
        records = self.executor.write(
            "attention/write_proposals",
            rows=rows,
            boundary_id=boundary_id,
            boundary_token=None if boundary_id is None else boundary_token(boundary_id),
        )
        return int(records[0]["written"])

    def standing_entries(self, boundary_id: str, keys: Sequence[str]) -> dict[str, str]:
        """Insight key → id of the newest entry under it that stands in the boundary."""
        if not keys:
            return {}
        records = self.executor.read(
            "attention/standing_entries",
            keys=list(keys),
            boundary_id=boundary_id,
            standing=as_values(LIVE_STATUSES),
        )
        return {r["key"]: r["entry_id"] for r in records if r["entry_id"] is not None}

    def record_gate_outcomes(
        self, boundary_id: str, outcomes: Sequence[WinnerOutcome], at: datetime
    ) -> None:
        """The gate's outcome on each winner's ProposalNode (in ``boundary_id``: its set and
        entry ids are that boundary's), and ADMITTED_FROM links, in one tx."""
        rows = [
            {
                "proposal_id": o.proposal_id,
                "outcome": o.outcome,
                "entry_ids": list(o.entry_ids),
                "set_id": o.set_id,
                "receipt_id": o.receipt_id,
            }
            for o in outcomes
        ]
        if rows:
            self.executor.write(
                "attention/record_gate_outcomes", boundary_id=boundary_id, rows=rows, at=at
            )

    def record_outcome(
        self, proposal_id: str, outcome: str, at: datetime, boundary_id: str | None
    ) -> bool:
        """Set one ProposalNode's outcome, within ``boundary_id`` (``None``: any); False when
        no such ProposalNode exists there."""
        records = self.executor.write(
            "attention/record_outcome",
            proposal_id=proposal_id,
            outcome=outcome,
            at=at,
            boundary_id=boundary_id,
        )
        return bool(records)

    def latest_score(self, specialist_id: str, boundary_id: str | None) -> float | None:
        """The composite of the specialist's most recent selected proposal in ``boundary_id``
        (``None``: in any boundary, the global scope), or None."""
        if boundary_id is None:
            records = self.executor.read("attention/score", specialist_id=specialist_id)
        else:
            records = self.executor.read(
                "attention/score_in_boundary", specialist_id=specialist_id, boundary_id=boundary_id
            )
        return float(records[0]["composite"]) if records else None
