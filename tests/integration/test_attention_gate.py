"""Workspace attention wired to the real gate: winners become insight entries, a repeat win
reinforces the entry that stands, and the gate's verdicts feed the next wave's track records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kg_context.attention import (
    WinnerFate,
    WorkspaceAttention,
    reset_workspace_attention_telemetry,
)
from kg_context.engine import Engine
from kg_context.settings import AttentionSettings

QUERY = "How do we make lookups of users by email faster?"


@pytest.fixture(autouse=True)
def _fresh_telemetry() -> Iterator[None]:
    reset_workspace_attention_telemetry()
    yield
    reset_workspace_attention_telemetry()


def admitted(engine: Engine, boundary_id: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = engine.executor.read(
        "audits/admitted_insights", boundary_id=boundary_id
    )
    return rows


def test_winners_are_admitted_and_a_repeat_win_reinforces(engine: Engine, boundary_id: str) -> None:
    attention = WorkspaceAttention(
        engine,
        boundary_id=boundary_id,
        settings=AttentionSettings(top_k=2, min_composite=0.0, strict=True),
    )
    a, b, c = (f"{boundary_id}-{n}" for n in "abc")
    outputs = {
        a: {"text": "Create a range index on the email property of User.", "confidence": 0.9},
        b: {"text": "Cache users by email in front of the database.", "confidence": 0.8},
        c: {"text": "The office picnic moved to Friday.", "confidence": 0.1},
    }
    first = attention.select_and_broadcast(outputs, QUERY, f"{boundary_id}-task")
    assert [w.specialist_id for w in first.winners] == [a, b]
    assert [o.outcome for o in first.outcomes] == ["commit", "commit"]
    links = admitted(engine, boundary_id)
    assert [(row["proposal"], row["outcome"], row["status"]) for row in links] == sorted(
        (w.id, "commit", "live") for w in first.winners
    )
    assert {row["key"] for row in links} == {w.insight_key for w in first.winners}

    second = attention.select_and_broadcast(outputs, QUERY, f"{boundary_id}-task")
    assert [o.outcome for o in second.outcomes] == ["reinforce", "reinforce"]
    assert all(w.track_record == pytest.approx(3 / 5) for w in second.winners)
    links = admitted(engine, boundary_id)
    assert len(links) == 4 and len({row["entry"] for row in links}) == 2  # no copies
    third = attention.collect_proposals(outputs, QUERY, f"{boundary_id}-task")
    assert {p.specialist_id: p.track_record for p in third}[a] == pytest.approx(4 / 6)
    assert attention.get_attention_score(a) == pytest.approx(second.winners[0].composite)


def test_a_winner_the_gate_refuses_counts_against_its_specialist(
    engine: Engine, boundary_id: str
) -> None:
    attention = WorkspaceAttention(
        engine,
        boundary_id=boundary_id,
        settings=AttentionSettings(top_k=3, min_composite=0.0),
    )
    fine, verbose = f"{boundary_id}-fine", f"{boundary_id}-verbose"
    outputs = {
        fine: "Create a range index on the email property of User.",
        # Far beyond the constitution's body limit: the gate will not admit it.
        verbose: "Index the email property. " + "Measure first, then change one thing. " * 2500,
    }
    result = attention.select_and_broadcast(outputs, QUERY, f"{boundary_id}-task")
    by_id = {o.specialist_id: o for o in result.outcomes}
    assert by_id[fine].outcome == WinnerFate.COMMIT
    assert by_id[verbose].outcome in {WinnerFate.HALT, WinnerFate.REJECT}
    assert by_id[verbose].entry_ids == ()
    nxt = {
        p.specialist_id: p.track_record for p in attention.collect_proposals(outputs, QUERY, "t")
    }
    assert nxt == {fine: pytest.approx(3 / 5), verbose: pytest.approx(2 / 5)}


def test_an_invalidation_reported_later_turns_a_success_into_a_failure(
    engine: Engine, boundary_id: str
) -> None:
    attention = WorkspaceAttention(
        engine, boundary_id=boundary_id, settings=AttentionSettings(top_k=2, min_composite=0.0)
    )
    a, b = f"{boundary_id}-a", f"{boundary_id}-b"
    outputs = {a: "Index the email property.", b: "Cache users by email."}
    result = attention.select_and_broadcast(outputs, QUERY, f"{boundary_id}-task")
    assert {o.outcome for o in result.outcomes} == {"commit"}
    attention.record_outcome(
        next(w.id for w in result.winners if w.specialist_id == a), "invalidated"
    )
    nxt = {
        p.specialist_id: p.track_record for p in attention.collect_proposals(outputs, QUERY, "t")
    }
    assert nxt == {a: pytest.approx(2 / 5), b: pytest.approx(3 / 5)}
