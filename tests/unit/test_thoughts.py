"""Thoughts without a database: the bounded text, what each bus proposal of a
broadcast came to, and the cycle handing every one of them to its thought log."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from kg_context.attention.models import ConfidenceSource, ScoredProposal
from kg_context.attention.scoring import wave_reason
from kg_context.cycle import (
    AdmissionReason,
    ArbitrationReason,
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    BusThought,
    GateOutcomeRow,
    SelectionBroadcastCycle,
)
from kg_context.gate.pure.contracts import MAX_BODY_CHARS, Proposal
from kg_context.settings import AttentionSettings, CycleSettings
from kg_context.text.thoughts import THOUGHT_MAX_CHARS, thought_text
from kg_context.vocabulary import ThoughtOutcome, WaveReason


def test_the_bound_of_a_thought_is_the_bound_of_an_entry_body() -> None:
    assert THOUGHT_MAX_CHARS == MAX_BODY_CHARS


def test_a_text_within_the_bound_is_kept_whole() -> None:
    kept = thought_text("the whole of it", bound=15)
    assert (kept.text, kept.truncated, kept.chars, kept.bound) == ("the whole of it", False, 15, 15)
    assert kept.sha256 == hashlib.sha256(b"the whole of it").hexdigest()
    # The record stores no length or digest of its own for the whole text: the text is both.
    assert kept.row() == {
        "text": "the whole of it",
        "text_sha256": None,
        "text_chars": None,
        "text_truncated": False,
        "text_bound": 15,
    }


def test_a_text_above_the_bound_is_cut_to_it_and_says_so_with_the_whole_texts_digest() -> None:
    whole = "abcdefghij" * 3
    kept = thought_text(whole, bound=12)
    assert (kept.text, kept.truncated, kept.chars, kept.bound) == ("abcdefghijab", True, 30, 12)
    assert kept.sha256 == hashlib.sha256(whole.encode()).hexdigest()
    assert kept.row()["text_truncated"] is True and kept.row()["text_chars"] == 30
    assert kept.row()["text_sha256"] == kept.sha256


def _scored(composite: float, selected: bool) -> ScoredProposal:
    from datetime import UTC, datetime

    return ScoredProposal(
        id="w/s",
        wave_id="w",
        specialist_id="s",
        task_id="t",
        text="x",
        digest="d",
        relevance=0.5,
        track_record=0.5,
        confidence=0.5,
        confidence_source=ConfidenceSource.DEFAULT,
        composite=composite,
        rank=1,
        at=datetime.now(UTC),
        embedding=(),
        selected=selected,
    )


def test_a_wave_reason_names_why_a_proposal_won_or_lost() -> None:
    s = AttentionSettings(min_composite=0.4, strict=False)
    assert wave_reason(_scored(0.9, True), competed=True, settings=s) is WaveReason.SELECTED
    assert wave_reason(_scored(0.9, False), competed=False, settings=s) is (
        WaveReason.NO_COMPETITION
    )
    assert wave_reason(_scored(0.3, False), competed=True, settings=s) is (
        WaveReason.BELOW_MIN_COMPOSITE
    )
    assert wave_reason(_scored(0.5, False), competed=True, settings=s) is WaveReason.OUTRANKED


class NoSource:
    def load_linked(self, ids: Sequence[str]) -> list[object]:
        return []

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[object]:
        return []


@dataclass
class Log:
    broadcasts: list[tuple[str, int, tuple[BusThought, ...]]] = field(default_factory=list)
    gate_rows: list[GateOutcomeRow] = field(default_factory=list)

    def record(self, broadcast_id: str, cycle: int, thoughts: Sequence[BusThought]) -> None:
        self.broadcasts.append((broadcast_id, cycle, tuple(thoughts)))

    def record_gate_outcomes(self, rows: Sequence[GateOutcomeRow]) -> None:
        self.gate_rows.extend(rows)


@dataclass(frozen=True)
class Decision:
    outcome: str
    set_id: str | None
    entry_ids: tuple[str, ...]


class Gate:
    def commit(self, proposal: Proposal) -> Decision:
        return Decision("commit", "set-1", tuple(proposal.entry_ids()))


def test_every_bus_proposal_is_logged_with_its_outcome_and_reason() -> None:
    def alice(ctx: BroadcastContext) -> list[BusProposal]:
        return [
            BusProposal(kind="ask_followup", key="why", priority=0.9, text="alice asks why"),
            BusProposal(kind="query_memory", key="faint", priority=0.1, text="a faint recall"),
            BusProposal(kind="admit_fact", key="f", priority=0.8, text="a fact to keep"),
        ]

    def bob(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="ask_followup", key="why", priority=0.4, text="bob asks too")]

    log = Log()
    cycle = SelectionBroadcastCycle(
        boundary_id="bnd",
        bus=BroadcastBus(
            [BusSubscriber("alice", alice), BusSubscriber("bob", bob)], default_timeout_s=5.0
        ),
        source=NoSource(),  # type: ignore[arg-type]
        gate=Gate(),
        settings=CycleSettings(min_query_priority=0.3),
        count_tokens=lambda lines: [len(x.split()) for x in lines],
        run_id="run1",
        thoughts=log,
    )
    result = cycle.run()
    ((broadcast_id, number, logged),) = log.broadcasts
    assert (broadcast_id, number) == ("run1-b1", 1) and logged == result.thoughts
    got = {t.id: (t.outcome, t.reason, t.inhibited_by, t.text.text) for t in logged}
    assert got == {
        "run1-b1/alice/0": (ThoughtOutcome.WON, AdmissionReason.ADMITTED, None, "alice asks why"),
        "run1-b1/alice/1": (
            ThoughtOutcome.INHIBITED,
            AdmissionReason.BELOW_MIN_QUERY_PRIORITY,
            None,
            "a faint recall",
        ),
        "run1-b1/alice/2": (ThoughtOutcome.WON, AdmissionReason.ADMITTED, None, "a fact to keep"),
        "run1-b1/bob/0": (
            ThoughtOutcome.INHIBITED,
            ArbitrationReason.DUPLICATE_KEY,
            "alice/ask_followup:why",
            "bob asks too",
        ),
    }
    assert [t.id for t in logged] == sorted(got)  # report order
    (gate_row,) = log.gate_rows
    assert (gate_row.thought_id, gate_row.gate_proposal_id, gate_row.outcome) == (
        "run1-b1/alice/2",
        "run1-b1-p0",
        "commit",
    )
