"""Everything produced lands in the record, on the real graph: an attention
loser's text and an inhibited bus proposal's text are found by history search of their boundary
(never of another), with their outcome; storing them leaves the window's token count as it was;
a durable bus winner carries the gate's decision; a text above the bound is kept cut and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kg_context.attention import WorkspaceAttention
from kg_context.cycle import (
    ArbitrationReason,
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    GraphEntrySource,
    SelectionBroadcastCycle,
)
from kg_context.engine import Engine
from kg_context.errors import StateError
from kg_context.record.history import ThoughtLine, search_thoughts
from kg_context.settings import AttentionSettings, CycleSettings
from kg_context.text.thoughts import THOUGHT_MAX_CHARS
from kg_context.vocabulary import ThoughtOutcome, ThoughtSource, WaveReason

QUERY = "How do we make lookups of users by email faster?"
LOSER = "Rewrite the lookup path as a quartzlantern of memoized zebrafinch probes."
INHIBITED = "Also consider the quartzlantern zebrafinch retry before anything else."


def _commit_seed(engine: Engine, boundary_id: str) -> None:
    decision = engine.boundary(boundary_id).commit(
        {
            "id": f"{boundary_id}-seed",
            "boundary_id": boundary_id,
            "writer_id": "seeder",
            "writer_kind": "agent",
            "targets": ["seed"],
            "entries": [
                {"id": f"{boundary_id}-goal", "class": "goal", "key": "goal", "body": "fast"}
            ],
        }
    )
    assert decision.outcome == "commit", decision


def _wave(engine: Engine, boundary_id: str, settings: AttentionSettings) -> None:
    attention = WorkspaceAttention(engine, boundary_id=boundary_id, settings=settings)
    attention.select_and_broadcast(
        {
            "indexer": {"text": "Create a range index on User.email.", "confidence": 0.9},
            "dreamer": {"text": LOSER, "confidence": 0.1},
        },
        QUERY,
        task_id="task-thoughts",
    )


def _broadcast(engine: Engine, boundary_id: str, *extra: BusProposal) -> SelectionBroadcastCycle:
    def first(ctx: BroadcastContext) -> Sequence[BusProposal]:
        return [BusProposal(kind="ask_followup", key="retry", priority=0.9, text="Retry first?")]

    def second(ctx: BroadcastContext) -> Sequence[BusProposal]:
        return [BusProposal(kind="ask_followup", key="retry", priority=0.4, text=INHIBITED), *extra]

    cycle = SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus(
            [BusSubscriber("first", first), BusSubscriber("second", second)],
            default_timeout_s=10.0,
        ),
        source=GraphEntrySource(engine.executor, boundary_id),
        gate=engine.boundary(boundary_id),
        settings=CycleSettings(min_activation=0.5),
        run_id=f"{boundary_id}-run",
    )
    cycle.run()
    return cycle


def _by_id(lines: list[ThoughtLine]) -> dict[str, ThoughtLine]:
    return {line.thought_id: line for line in lines}


def test_losers_and_inhibited_bus_proposals_are_found_by_their_boundary_at_no_window_cost(
    engine: Engine, boundary_id: str
) -> None:
    other = f"{boundary_id}-other"
    for b in (boundary_id, other):
        _commit_seed(engine, b)
    boundary = engine.boundary(boundary_id)
    before = boundary.window().total_tokens
    # min_composite 1.0: nobody wins, nothing goes to the gate; every proposal is a kept loser.
    nobody_wins = AttentionSettings(top_k=1, min_composite=1.0, strict=False)
    _wave(engine, boundary_id, nobody_wins)
    _broadcast(engine, boundary_id)
    assert boundary.window().total_tokens == before  # stored thoughts cost the window nothing
    # The same words in another boundary: never found from this one.
    _wave(engine, other, nobody_wins)
    _broadcast(engine, other)

    found = _by_id(search_thoughts(boundary, "quartzlantern zebrafinch"))
    elsewhere = _by_id(search_thoughts(engine.boundary(other), "quartzlantern zebrafinch"))
    assert len(found) == 2 and len(elsewhere) == 2  # each boundary: its loser, its inhibited
    assert not set(found) & set(elsewhere)
    loser = next(line for i, line in found.items() if i.endswith("/dreamer"))
    assert (loser.source, loser.writer_id, loser.outcome, loser.reason, loser.text) == (
        ThoughtSource.ATTENTION,
        "dreamer",
        ThoughtOutcome.LOST,
        WaveReason.BELOW_MIN_COMPOSITE,
        LOSER,
    )
    inhibited = found[f"{boundary_id}-run-b1/second/0"]
    assert (
        inhibited.source,
        inhibited.writer_id,
        inhibited.contest_id,
        inhibited.cycle,
        inhibited.outcome,
        inhibited.reason,
        inhibited.inhibited_by,
        inhibited.text,
    ) == (
        ThoughtSource.BUS,
        "second",
        f"{boundary_id}-run-b1",
        1,
        ThoughtOutcome.INHIBITED,
        ArbitrationReason.DUPLICATE_KEY,
        "first/ask_followup:retry",
        INHIBITED,
    )
    # The winner of the bus round is kept too.
    winner = _by_id(search_thoughts(boundary, "retry"))[f"{boundary_id}-run-b1/first/0"]
    assert (winner.writer_id, winner.outcome) == ("first", ThoughtOutcome.WON)


def test_winners_carry_the_gates_decision_and_a_long_loser_is_kept_cut_at_the_bound(
    engine: Engine, boundary_id: str
) -> None:
    _commit_seed(engine, boundary_id)
    boundary = engine.boundary(boundary_id)
    long_text = "overlongwhalesong " * (THOUGHT_MAX_CHARS // 18 + 10)
    attention = WorkspaceAttention(
        engine,
        boundary_id=boundary_id,
        settings=AttentionSettings(
            top_k=1,
            min_composite=0.0,
            strict=False,
            # bounds an operator raised: the record still keeps an over-long text cut
            max_output_bytes=2 * THOUGHT_MAX_CHARS,
            max_wave_bytes=2 * THOUGHT_MAX_CHARS,
        ),
    )
    result = attention.select_and_broadcast(
        {
            "indexer": {"text": "Create a range index on User.email.", "confidence": 0.9},
            "rambler": {"text": long_text, "confidence": 0.0},
        },
        QUERY,
        task_id="task-thoughts",
    )
    (winner_outcome,) = result.outcomes
    window_before_bus = boundary.window().total_tokens
    fact = BusProposal(kind="admit_fact", key="email-indexed", priority=0.8, text="kept fact")
    cycle = _broadcast(engine, boundary_id, fact)

    (rambler,) = search_thoughts(boundary, "overlongwhalesong")
    assert (rambler.outcome, rambler.reason, rambler.truncated) == (
        ThoughtOutcome.LOST,
        WaveReason.OUTRANKED,
        True,
    )
    assert (rambler.chars, rambler.bound, len(rambler.text)) == (
        len(long_text),
        THOUGHT_MAX_CHARS,
        THOUGHT_MAX_CHARS,
    )
    assert "truncated at 262144" in rambler.line()
    (indexer,) = [t for t in search_thoughts(boundary, "range index") if t.writer_id == "indexer"]
    assert (indexer.outcome, indexer.reason, indexer.gate_outcome, indexer.set_id) == (
        ThoughtOutcome.WON,
        WaveReason.SELECTED,
        winner_outcome.outcome,
        winner_outcome.set_id,
    )
    (kept,) = search_thoughts(boundary, "kept fact")
    assert (kept.kind, kept.outcome, kept.gate_outcome) == (
        "admit_fact",
        ThoughtOutcome.WON,
        "commit",
    )
    (entry_id,) = [e.id for e in boundary.window().entries if e.key == "email-indexed"]
    assert kept.set_id is not None and cycle.run_id in kept.thought_id
    # The window grew by the admitted fact alone: its thoughts, the winner's included, add 0.
    fact_tokens = next(e.tokens for e in boundary.window().entries if e.id == entry_id)
    assert boundary.window().total_tokens == window_before_bus + fact_tokens


def test_a_reused_run_id_is_refused_instead_of_losing_the_new_broadcasts_thoughts(
    engine: Engine, boundary_id: str
) -> None:
    _commit_seed(engine, boundary_id)
    _broadcast(engine, boundary_id)
    with pytest.raises(StateError, match="own run_id"):
        _broadcast(engine, boundary_id)  # the same run id, so the same thought ids
    # The first broadcast's thought stands as it was recorded.
    (first,) = [t for t in search_thoughts(engine.boundary(boundary_id), "quartzlantern")]
    assert first.thought_id == f"{boundary_id}-run-b1/second/0"
