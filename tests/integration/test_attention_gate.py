"""Workspace attention wired to the real gate: winners become insight entries, a repeat win
reinforces the entry that stands, and the gate's verdicts feed the next wave's track records."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from kg_context.attention import (
    WinnerFate,
    WorkspaceAttention,
    reset_workspace_attention_telemetry,
)
from kg_context.engine import Engine
from kg_context.errors import InputValidationError
from kg_context.record.invalidation import invalidate
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


def test_one_boundarys_invalidated_work_does_not_move_a_score_in_another(engine: Engine) -> None:
    """Specialist S wins in boundary A and in boundary B; its work in B is
    invalidated through the gate's blast-radius walk and it scores lower in B's next wave. In A
    nothing moves: the score reads A's proposals only and A's next wave scores S with A's track
    record alone. The global scope, the explicit option, sees B."""
    run = uuid.uuid4().hex[:10]
    boundary_a, boundary_b = f"test-attn-a-{run}", f"test-attn-b-{run}"
    s, other = f"{run}-s", f"{run}-other"
    outputs = {
        s: {"text": "Create a range index on the email property of User.", "confidence": 0.9},
        other: {"text": "The office picnic moved to Friday.", "confidence": 0.2},
    }
    cfg = AttentionSettings(top_k=1, min_composite=0.0, strict=True)
    in_a = WorkspaceAttention(engine, boundary_id=boundary_a, settings=cfg)
    in_b = WorkspaceAttention(engine, boundary_id=boundary_b, settings=cfg)
    everywhere = WorkspaceAttention(engine, boundary_id=boundary_a, settings=cfg, scope="global")

    a1 = in_a.select_and_broadcast(outputs, QUERY, f"{run}-task")
    assert [w.specialist_id for w in a1.winners] == [s]
    score_in_a = in_a.get_attention_score(s)
    assert score_in_a == pytest.approx(a1.winners[0].composite)
    b1 = in_b.select_and_broadcast(outputs, QUERY, f"{run}-task")
    (admitted_in_b,) = b1.outcomes[0].entry_ids

    blast = invalidate(
        engine.boundary(boundary_b),
        admitted_in_b,
        reason="the index never helped",
        writer_id="operator",
    )
    assert blast.decision.outcome == "commit"
    b2 = in_b.select_and_broadcast(outputs, QUERY, f"{run}-task")
    s_in_b2 = next(p for p in b2.proposals if p.specialist_id == s)
    assert s_in_b2.track_record == pytest.approx(2 / 5)  # B: one failure
    assert in_b.get_attention_score(s) == pytest.approx(s_in_b2.composite)

    # A: not moved. Its score is still A's, and A's next wave sees A's record alone.
    read = in_a.attention_score(s)
    assert (read.score, read.scope, read.boundary_id) == (score_in_a, "boundary", boundary_a)
    a2 = in_a.collect_proposals(outputs, QUERY, f"{run}-task")
    assert {p.specialist_id: p.track_record for p in a2}[s] == pytest.approx(3 / 5)
    # The explicit global scope reads across both: B's latest, and both outcomes.
    assert everywhere.get_attention_score(s) == pytest.approx(s_in_b2.composite)
    assert everywhere.attention_score(s).scope == "global"
    across = {
        p.specialist_id: p.track_record for p in everywhere.collect_proposals(outputs, QUERY, "t")
    }
    assert across[s] == pytest.approx(4 / 7)  # A1 and B2 succeeded, B1 was invalidated


def test_a_report_from_one_boundary_cannot_move_another_boundarys_record(
    engine: Engine,
) -> None:
    run = uuid.uuid4().hex[:10]
    cfg = AttentionSettings(top_k=1, min_composite=0.0)
    in_a = WorkspaceAttention(engine, boundary_id=f"test-attn-a-{run}", settings=cfg)
    in_b = WorkspaceAttention(engine, boundary_id=f"test-attn-b-{run}", settings=cfg)
    outputs = {f"{run}-s": "Index the email property.", f"{run}-o": "Picnic on Friday."}
    won_in_b = in_b.select_and_broadcast(outputs, QUERY, f"{run}-task").winners[0]
    with pytest.raises(InputValidationError, match="no ProposalNode"):
        in_a.record_outcome(won_in_b.id, "invalidated")
    nxt = {p.specialist_id: p.track_record for p in in_b.collect_proposals(outputs, QUERY, "t")}
    assert nxt[won_in_b.specialist_id] == pytest.approx(3 / 5)  # still a success in B
