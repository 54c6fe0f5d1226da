"""Preconscious buffer, conscious workspace and competition (pure Python, deterministic)."""

from __future__ import annotations

import pytest

from kg_context.cycle import (
    BufferReason,
    Candidate,
    CandidateOrigin,
    CompetitionReason,
    ConsciousWorkspace,
    PreconsciousBuffer,
    compete,
)
from kg_context.errors import InputValidationError


def cand(
    cid: str, activation: float, *, status: str = "live", linked: tuple[str, ...] = ()
) -> Candidate:
    return Candidate(
        id=cid,
        key=f"k-{cid}",
        text=f"text of {cid}",
        activation=activation,
        origin=CandidateOrigin.STORED,
        linked_ids=linked,
        status=status,
    )


def test_candidate_validates_activation_and_ids() -> None:
    with pytest.raises(InputValidationError, match="activation"):
        cand("a", 1.5)
    with pytest.raises(InputValidationError, match="activation"):
        cand("a", float("nan"))
    with pytest.raises(InputValidationError, match="non-empty"):
        Candidate(id="", key="k", text="", activation=0.5, origin=CandidateOrigin.STORED)


def test_buffer_merges_by_id_keeps_strongest_and_drops_weakest_on_overflow() -> None:
    buffer = PreconsciousBuffer(capacity=2)
    decisions = buffer.offer([cand("a", 0.4), cand("b", 0.6), cand("a", 0.7), cand("c", 0.1)])
    assert [(d.candidate_id, d.reason) for d in decisions] == [
        ("a", BufferReason.BUFFERED),
        ("b", BufferReason.BUFFERED),
        ("a", BufferReason.MERGED),
        ("c", BufferReason.BUFFERED),
        ("c", BufferReason.BUFFER_OVERFLOW),
    ]
    assert [(c.id, c.activation) for c in buffer.ranked()] == [("a", 0.7), ("b", 0.6)]
    # A weaker repeat does not lower a waiting candidate.
    buffer.offer([cand("b", 0.2)])
    assert buffer.ranked()[1].activation == 0.6


def test_buffer_ranks_ties_by_id_and_drain_empties_it() -> None:
    buffer = PreconsciousBuffer(capacity=10)
    buffer.offer([cand("z", 0.5), cand("m", 0.5), cand("a", 0.2)])
    assert [c.id for c in buffer.drain()] == ["m", "z", "a"]
    assert len(buffer) == 0


def test_buffer_decay_fades_candidates_under_the_floor() -> None:
    buffer = PreconsciousBuffer(capacity=10)
    buffer.offer([cand("a", 0.5), cand("b", 0.1)])
    decisions = buffer.decay(0.5, floor=0.1)
    assert [(d.candidate_id, d.reason) for d in decisions] == [("b", BufferReason.FADED)]
    assert [(c.id, c.activation) for c in buffer.ranked()] == [("a", 0.25)]


def test_competition_records_a_reason_for_every_candidate() -> None:
    ws = ConsciousWorkspace(capacity=2)
    result = compete(
        ws,
        [
            cand("low", 0.2),
            cand("a", 0.9),
            cand("b", 0.8),
            cand("c", 0.7),
            cand("gone", 0.95, status="retired"),
            cand("bad", 0.95, status="invalidated"),
            cand("a", 0.6),
        ],
        min_activation=0.5,
        cycle=1,
    )
    assert result.reasons() == {
        "a": CompetitionReason.DUPLICATE,  # the repeat, after its admission
        "b": CompetitionReason.ADMITTED,
        "c": CompetitionReason.CAPACITY_REJECTED,
        "low": CompetitionReason.BELOW_MIN_ACTIVATION,
        "gone": CompetitionReason.INELIGIBLE_STATUS,
        "bad": CompetitionReason.INELIGIBLE_STATUS,
    }
    assert [(d.candidate_id, d.reason) for d in result.decisions][:2] == [
        ("bad", CompetitionReason.INELIGIBLE_STATUS),
        ("gone", CompetitionReason.INELIGIBLE_STATUS),
    ]
    assert len(result.decisions) == 7
    assert result.admitted == ("a", "b")
    assert [i.id for i in ws.items()] == ["a", "b"]
    # Below-threshold and capacity-rejected candidates stay preconscious; retired ones do not.
    assert {c.id for c in result.waiting} == {"c", "low"}


def test_a_stronger_candidate_evicts_the_weakest_conscious_item() -> None:
    ws = ConsciousWorkspace(capacity=2)
    compete(ws, [cand("a", 0.9), cand("b", 0.6)], min_activation=0.5, cycle=1)
    result = compete(ws, [cand("c", 0.8)], min_activation=0.5, cycle=2)
    evicted = [d for d in result.decisions if d.reason is CompetitionReason.CAPACITY_EVICTED]
    assert [(d.candidate_id, d.displaced_by) for d in evicted] == [("b", "c")]
    assert [(c.id, c.origin) for c in result.evicted] == [("b", CandidateOrigin.EVICTED)]
    assert [i.id for i in ws.items()] == ["a", "c"]
    assert ws.get("c") is not None and ws.get("c").admitted_cycle == 2  # type: ignore[union-attr]


def test_an_equally_strong_candidate_does_not_displace() -> None:
    ws = ConsciousWorkspace(capacity=1)
    compete(ws, [cand("a", 0.6)], min_activation=0.5, cycle=1)
    result = compete(ws, [cand("b", 0.6)], min_activation=0.5, cycle=2)
    assert result.reasons() == {"b": CompetitionReason.CAPACITY_REJECTED}
    assert [i.id for i in ws.items()] == ["a"]


def test_duplicate_of_a_conscious_item_refreshes_its_activation() -> None:
    ws = ConsciousWorkspace(capacity=3)
    compete(ws, [cand("a", 0.6)], min_activation=0.5, cycle=1)
    result = compete(ws, [cand("a", 0.9)], min_activation=0.5, cycle=2)
    assert result.reasons() == {"a": CompetitionReason.DUPLICATE}
    item = ws.get("a")
    assert item is not None and item.activation == 0.9 and item.admitted_cycle == 1


def test_conscious_items_decay_and_fall_out_below_the_minimum() -> None:
    ws = ConsciousWorkspace(capacity=3)
    compete(ws, [cand("a", 0.9), cand("b", 0.55)], min_activation=0.5, cycle=1)
    result = compete(ws, [], min_activation=0.5, cycle=2, workspace_decay=0.9)
    assert result.reasons() == {"b": CompetitionReason.DECAYED_BELOW_MIN}
    assert [c.id for c in result.evicted] == ["b"]
    item = ws.get("a")
    assert item is not None and item.activation == pytest.approx(0.81)
