"""Every database call of workspace attention: named Cypher files under ``cypher/attention/``.

All writes of one wave go in one batched ``UNWIND`` statement; the track records of a wave's
specialists come from one batched read; an attention score is one indexed read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from kg_context.attention.models import (
    FAILURE_OUTCOMES,
    SUCCESS_OUTCOMES,
    ScoredProposal,
    WinnerOutcome,
)
from kg_context.db.executor import QueryExecutor
from kg_context.vocabulary import FAILED_WORK, LIVE_STATUSES, as_values

__all__ = ["AttentionStore"]


class AttentionStore:
    """Reads and writes ProposalNodes through one executor (and its bookmarks)."""

    def __init__(self, executor: QueryExecutor) -> None:
        self.executor = executor

    def outcome_counts(
        self, specialist_ids: Sequence[str], window: int
    ) -> dict[str, tuple[int, int]]:
        """(successes, failures) over each specialist's last ``window`` selected proposals."""
        if not specialist_ids:
            return {}
        records = self.executor.read(
            "attention/track_records",
            specialist_ids=list(specialist_ids),
            window=window,
            failure_outcomes=list(FAILURE_OUTCOMES),
            success_outcomes=list(SUCCESS_OUTCOMES),
            failed_statuses=as_values(FAILED_WORK),
        )
        return {r["specialist_id"]: (int(r["successes"]), int(r["failures"])) for r in records}

    def write_wave(self, proposals: Iterable[ScoredProposal]) -> int:
        """Every proposal of a wave, winners and losers, with its Specialist and Task links."""
        rows = [
            {
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
                "embedding": list(p.embedding),
                "digest": p.digest,
            }
            for p in proposals
        ]
        if not rows:
            return 0
        records = self.executor.write("attention/write_proposals", rows=rows)
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

    def record_outcome(self, proposal_id: str, outcome: str, at: datetime) -> bool:
        """Set one ProposalNode's outcome; False when no such ProposalNode exists."""
        records = self.executor.write(
            "attention/record_outcome", proposal_id=proposal_id, outcome=outcome, at=at
        )
        return bool(records)

    def latest_score(self, specialist_id: str) -> float | None:
        """The composite of the specialist's most recent selected proposal, or None."""
        records = self.executor.read("attention/score", specialist_id=specialist_id)
        return float(records[0]["composite"]) if records else None
