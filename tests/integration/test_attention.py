"""Workspace attention against the real Neo4j and the real embedding model.

Outcomes are reported with ``WorkspaceAttention.record_outcome`` (commit for work that stands,
invalidated for work that was invalidated), so these tests hold with or without the gate; the
gate-wired loop has its own file.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import neo4j
import pytest

from kg_context.attention import (
    WorkspaceAttention,
    reset_workspace_attention_telemetry,
    workspace_attention_telemetry,
)
from kg_context.attention.scoring import content_digest
from kg_context.db.catalog import default_catalog
from kg_context.db.connection import Target
from kg_context.engine import Engine
from kg_context.errors import ConfigurationError, DatabaseNotFoundError
from kg_context.settings import AttentionSettings

QUERY = "How do we make lookups of users by email faster?"


@pytest.fixture
def run_id() -> str:
    return f"attn-{uuid.uuid4().hex[:12]}"


@pytest.fixture(autouse=True)
def _fresh_telemetry() -> Iterator[None]:
    reset_workspace_attention_telemetry()
    yield
    reset_workspace_attention_telemetry()


def settings(**overrides: Any) -> AttentionSettings:
    values: dict[str, Any] = {"top_k": 2, "min_composite": 0.0, "strict": False}
    values.update(overrides)
    return AttentionSettings(**values)


def wave_nodes(engine: Engine, wave_id: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = engine.executor.read("audits/attention_wave", wave_id=wave_id)
    return rows


def test_three_specialists_over_twenty_waves_scores_follow_outcomes(
    engine: Engine, run_id: str
) -> None:
    attention = WorkspaceAttention(engine, scope="global", settings=settings())
    # One text for all three (identical relevance); "bad" declares the most confidence, so it
    # starts ahead, and the track record does the rest. Ties break by specialist id.
    bad, good, steady = f"{run_id}-a-bad", f"{run_id}-b-good", f"{run_id}-c-steady"
    text = "Add a range index on the email property of User nodes."
    outputs = {
        bad: {"text": text, "confidence": 1.0},
        good: {"text": text, "confidence": 0.8},
        steady: {"text": text, "confidence": 0.8},
    }
    task = f"{run_id}-task"
    wins: dict[str, list[int]] = {bad: [], good: [], steady: []}
    tracks: dict[str, list[float]] = {bad: [], good: [], steady: []}
    scores: dict[str, list[float | None]] = {bad: [], good: []}
    for wave in range(20):
        result = attention.select_and_broadcast(outputs, QUERY, task)
        assert len(result.proposals) == 3 and len(result.winners) == 2
        assert len(result.losers) == 1
        for proposal in result.proposals:
            tracks[proposal.specialist_id].append(proposal.track_record)
        for winner in result.winners:
            wins[winner.specialist_id].append(wave)
            if winner.specialist_id == good:
                attention.record_outcome(winner.id, "commit")  # its work stands
            elif winner.specialist_id == bad:
                attention.record_outcome(winner.id, "invalidated")  # its work was invalidated
            # steady's work is never reviewed: its outcomes stay pending.
        for sid in scores:
            scores[sid].append(attention.get_attention_score(sid))

    # "good" won every wave and its track record climbed by Beta(2, 2) posterior steps.
    assert wins[good] == list(range(20))
    assert tracks[good] == pytest.approx([(2 + n) / (4 + n) for n in range(20)])
    # "bad" led at first, fell with each invalidation, and lost from the third wave on.
    assert wins[bad] == [0, 1]
    assert tracks[bad] == pytest.approx([0.5, 0.4] + [2 / 6] * 18)
    assert tracks[steady] == pytest.approx([0.5] * 20)  # pending outcomes do not move it
    bad_first, bad_second = scores[bad][0], scores[bad][1]
    assert bad_first is not None and bad_second is not None and bad_second < bad_first
    assert scores[bad][2:] == [bad_second] * 18  # no new selected proposal: score unchanged
    good_last, bad_last = scores[good][-1], scores[bad][-1]
    assert good_last is not None and bad_last is not None
    assert bad_last < good_last
    assert scores[good] == sorted(s for s in scores[good] if s is not None)  # rising

    # Telemetry counts what happened: 20 waves of 3, 2 winners each, 40 reads that resolved.
    snap = workspace_attention_telemetry()
    assert (snap.waves, snap.proposals_written, snap.broadcasts_written) == (20, 60, 40)
    assert (snap.attention_reads, snap.attention_hits, snap.attention_misses) == (40, 40, 0)
    assert snap.suspected_engine_mismatch is False

    # Every proposal is in the graph, losers included, with its outcome.
    records = engine.executor.read("audits/attention_outcomes", task_id=task)
    assert {(r["selected"], r["outcome"]): r["n"] for r in records} == {
        (True, "commit"): 20,
        (True, "invalidated"): 2,
        (True, None): 18,
        (False, None): 20,
    }


def test_a_wave_is_recorded_in_full_with_its_links_and_no_embedding(
    engine: Engine, run_id: str
) -> None:
    attention = WorkspaceAttention(engine, scope="global", settings=settings(top_k=1))
    outputs = {
        f"{run_id}-a": {"text": "Create a range index on User.email.", "confidence": 0.9},
        f"{run_id}-b": "Cache users by email in the application.\nconfidence: 0.6",
        f"{run_id}-c": "The quarterly picnic is on Friday.",
    }
    result = attention.select_and_broadcast(outputs, QUERY, f"{run_id}-task")
    nodes = wave_nodes(engine, result.wave_id)
    assert [n["specialist"] for n in nodes] == [p.specialist_id for p in result.proposals]
    assert [n["p"]["selected"] for n in nodes] == [True, False, False]
    assert nodes[-1]["specialist"] == f"{run_id}-c"  # the irrelevant output ranks last
    first = nodes[0]["p"]
    assert set(first) >= {
        "id", "specialist_id", "task_id", "relevance", "track_record", "confidence",
        "composite", "selected", "at", "wave_id", "text",
    }  # fmt: skip
    assert "embedding" not in first  # scored in memory; nothing reads it back
    # Nothing its label or other properties say is stored again: the writer is specialist_id,
    # the source is the label, and an uncut text's content digest is its stored text's.
    assert {"writer_id", "thought_source", "digest"}.isdisjoint(first)
    assert content_digest(first["text"]) == result.proposals[0].digest
    assert all(n["task"] == f"{run_id}-task" for n in nodes)
    by_id = {n["specialist"]: n["p"] for n in nodes}
    assert by_id[f"{run_id}-a"]["confidence_source"] == "metadata"
    assert by_id[f"{run_id}-b"]["confidence"] == pytest.approx(0.6)
    assert by_id[f"{run_id}-c"]["confidence_source"] == "default"


def test_lone_output_is_recorded_not_broadcast_and_unknown_reads_none(
    engine: Engine, run_id: str
) -> None:
    attention = WorkspaceAttention(engine, scope="global", settings=settings())
    lone = f"{run_id}-lone"
    result = attention.select_and_broadcast({lone: "Index the email."}, QUERY, f"{run_id}-t")
    assert result.winners == ()
    nodes = wave_nodes(engine, result.wave_id)
    assert [n["p"]["selected"] for n in nodes] == [False]
    # Recorded, but never selected: it has no attention score, like a specialist never seen.
    assert attention.get_attention_score(lone) is None
    assert attention.get_attention_score(f"{run_id}-never-seen") is None
    snap = workspace_attention_telemetry()
    assert (snap.attention_reads, snap.attention_misses, snap.broadcasts_written) == (2, 2, 0)
    assert snap.suspected_engine_mismatch is False  # no broadcast yet: nothing to resolve


def test_ties_on_time_are_broken_by_id(engine: Engine, run_id: str) -> None:
    attention = WorkspaceAttention(engine, scope="global", settings=settings(top_k=3))
    a = f"{run_id}-a"
    proposals = attention.collect_proposals(
        {a: "Index email.", f"{run_id}-b": "Cache users."}, QUERY, f"{run_id}-t"
    )
    first = attention.broadcast_to_kg(attention.select_winners(proposals))
    # A second wave stamped with the very same instant: its wave id sorts later.
    again = attention.collect_proposals(
        {a: "Index the email property.", f"{run_id}-b": "Cache."}, QUERY, f"{run_id}-t"
    )
    again = [replace(p, at=first.winners[0].at) for p in again]
    second = attention.broadcast_to_kg(attention.select_winners(again))
    assert second.wave_id > first.wave_id
    expected = next(p for p in second.winners if p.specialist_id == a).composite
    assert attention.get_attention_score(a) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("name", "params", "index"),
    [
        ("attention/score", {}, "specialist_id, selected, at"),
        (
            "attention/score_in_boundary",
            {"boundary_id": "nowhere"},
            "boundary_id, specialist_id, selected, at",
        ),
    ],
)
def test_score_read_is_one_index_seek_that_stops_early(
    engine: Engine, driver: neo4j.Driver, name: str, params: dict[str, Any], index: str
) -> None:
    text = default_catalog()[name].text
    summary = driver.execute_query(
        "PROFILE " + text,
        specialist_id="nobody",
        **params,
        database_=engine.executor.database,
    ).summary
    operators: list[str] = []

    def walk(plan: dict[str, Any]) -> None:
        operators.append(plan["operatorType"].split("@")[0])
        for child in plan.get("children", []):
            walk(child)

    assert summary.profile is not None
    walk(summary.profile)
    # A seek on the composite index (the planner may name it NodeIndexSeek or
    # NodeIndexSeekByRange), never a scan of the label or of the index, never a full sort.
    assert any("IndexSeek" in op for op in operators), " > ".join(operators)
    assert not {"NodeByLabelScan", "AllNodesScan", "NodeIndexScan", "Sort", "Top"} & set(
        operators
    ), operators
    assert f"({index})" in str(summary.profile), str(summary.profile)


def test_strict_mode_raises_on_an_engine_mismatch(
    engine: Engine, second_engine: Engine, run_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes go to one Neo4j server, reads to another (a real second server). Strict mode
    comes from the environment, which an engine reads once, when it is constructed."""
    monkeypatch.setenv("KG_CONTEXT_GWT_STRICT", "1")
    monkeypatch.setenv("KG_CONTEXT_ATTENTION_MIN_COMPOSITE", "0")
    with (
        Engine.connect(engine.target) as writing,
        Engine.connect(second_engine.target) as reading,
    ):
        writer = WorkspaceAttention(writing, scope="global")
        reader = WorkspaceAttention(reading, scope="global")
        assert writer.settings.strict and reader.settings.strict
        outputs = {f"{run_id}-a": "Index the email.", f"{run_id}-b": "Cache the users."}
        result = writer.select_and_broadcast(outputs, QUERY, f"{run_id}-t")
        winner = result.winners[0].specialist_id
        assert writer.get_attention_score(winner) is not None  # same engine: resolves
        with pytest.raises(ConfigurationError, match="different engines or databases"):
            reader.get_attention_score(winner)
    assert workspace_attention_telemetry().suspected_engine_mismatch


def test_without_strict_mode_a_mismatch_warns_once(
    engine: Engine, second_engine: Engine, run_id: str
) -> None:
    writer = WorkspaceAttention(engine, scope="global", settings=settings())
    reader = WorkspaceAttention(second_engine, scope="global", settings=settings())
    outputs = {f"{run_id}-a": "Index the email.", f"{run_id}-b": "Cache the users."}
    winner = writer.select_and_broadcast(outputs, QUERY, f"{run_id}-t").winners[0]
    with pytest.warns(RuntimeWarning, match="different engines"):
        assert reader.get_attention_score(winner.specialist_id) is None
    snap = workspace_attention_telemetry()
    assert snap.suspected_engine_mismatch and snap.misses_after_own_broadcast == 1


def test_a_reader_on_a_database_that_does_not_exist_fails_loudly(
    engine: Engine, neo4j_target: Target
) -> None:
    missing = Target(
        neo4j_target.source,
        neo4j_target.uri,
        neo4j_target.username,
        neo4j_target.password,
        f"nodb{uuid.uuid4().hex[:8]}",
    )
    with pytest.raises(DatabaseNotFoundError, match=missing.database):
        Engine.connect(missing)  # the schema check on connect reads it: refused at once
    with Engine.connect(missing, check_schema=False) as other:
        reader = WorkspaceAttention(other, scope="global", settings=settings())
        with pytest.raises(DatabaseNotFoundError, match=missing.database):
            reader.get_attention_score("anyone")
    assert workspace_attention_telemetry().attention_reads == 0
