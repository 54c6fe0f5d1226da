"""Workspace attention without a database: scoring, selection, consensus, telemetry, the loop's
calls (through a recording executor that binds every call against the real catalog)."""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from kg_context.attention import (
    AttentionScope,
    AttentionScore,
    ScoredProposal,
    WinnerFate,
    WorkspaceAttention,
    consensus_operators,
    consensus_score,
    insight_proposal,
    load_attention_settings,
    log_pool,
    register_consensus_operator,
    reset_workspace_attention_telemetry,
    workspace_attention_telemetry,
)
from kg_context.attention.models import ConfidenceSource
from kg_context.attention.scoring import (
    beta_mean,
    content_digest,
    parse_outputs,
    rank,
    relevances,
    select,
    text_confidence,
)
from kg_context.attention.telemetry import counters
from kg_context.db.catalog import default_catalog
from kg_context.db.executor import Record, Transaction
from kg_context.errors import ConfigurationError, InputValidationError
from kg_context.gate.pure.contracts import EntryClass, Proposal, WriterKind
from kg_context.settings import AttentionSettings

T = Any


def settings(**overrides: Any) -> AttentionSettings:
    base: dict[str, Any] = {"top_k": 2, "min_composite": 0.0, "strict": False}
    base.update(overrides)
    return AttentionSettings(**base)


@pytest.fixture(autouse=True)
def _fresh_telemetry() -> None:
    reset_workspace_attention_telemetry()


# -- settings --------------------------------------------------------------------------------


def test_settings_defaults_and_weights_must_sum_to_one(monkeypatch: pytest.MonkeyPatch) -> None:
    s = AttentionSettings()
    assert (s.weight_relevance, s.weight_track_record, s.weight_confidence) == (0.5, 0.3, 0.2)
    assert beta_mean(0, 0, s.prior_alpha, s.prior_beta) == 0.5
    monkeypatch.setenv("KG_CONTEXT_ATTENTION_WEIGHT_RELEVANCE", "0.6")
    with pytest.raises(ConfigurationError, match="must sum to 1"):
        load_attention_settings()
    monkeypatch.setenv("KG_CONTEXT_ATTENTION_WEIGHT_CONFIDENCE", "0.1")
    monkeypatch.setenv("KG_CONTEXT_GWT_STRICT", "1")
    loaded = load_attention_settings()
    assert loaded.weight_confidence == 0.1
    assert loaded.strict is True


# -- parsing outputs and confidence ----------------------------------------------------------


def test_confidence_from_metadata_then_text_then_default() -> None:
    parsed = parse_outputs(
        {
            "b": "The answer is 4.\nConfidence: 0.7",
            "a": {"text": "It is 4.", "confidence": 0.9},
            "c": "No declaration here.",
            "d": {"text": "confidence = 85%"},
        },
        default_confidence=0.5,
    )
    assert [(o.specialist_id, o.confidence, o.confidence_source) for o in parsed] == [
        ("a", 0.9, ConfidenceSource.METADATA),
        ("b", 0.7, ConfidenceSource.TEXT),
        ("c", 0.5, ConfidenceSource.DEFAULT),
        ("d", 0.85, ConfidenceSource.TEXT),
    ]


def test_text_fallback_takes_only_well_formed_in_range_values() -> None:
    assert text_confidence("confidence: 7") is None
    assert text_confidence("my confidence: high") is None
    assert text_confidence("low confidence: 0.2 in the middle of a sentence") is None
    assert text_confidence("**Confidence:** 0.35") == 0.35
    assert text_confidence("confidence: .5\nconfidence: 0.9") == 0.5


@pytest.mark.parametrize(
    ("outputs", "words"),
    [
        ({"a": {"text": "x", "confidence": 1.2}}, "in \\[0, 1\\]"),
        ({"a": {"text": "x", "confidence": math.nan}}, "in \\[0, 1\\]"),
        ({"a": {"text": "x", "confidence": True}}, "a number"),
        ({"a": {"text": "x", "confidence": "0.5"}}, "a number"),
        ({"a": {"text": "x", "conf": 0.5}}, "unknown keys"),
        ({"a": {"confidence": 0.5}}, "'text' as a string"),
        ({"a": "   "}, "is empty"),
        ({"a/b": "x"}, "specialist id"),
        ({"a": 3}, "a string or a mapping"),
    ],
)
def test_bad_outputs_are_refused(outputs: dict[str, Any], words: str) -> None:
    with pytest.raises(InputValidationError, match=words):
        parse_outputs(outputs, default_confidence=0.5)


def test_digest_ignores_whitespace_runs_only() -> None:
    assert content_digest("a  b\n c") == content_digest("a b c")
    assert content_digest("a b c") != content_digest("a b d")


# -- scoring and selection -------------------------------------------------------------------


def test_beta_posterior_moves_with_outcomes() -> None:
    assert beta_mean(0, 0, 2, 2) == 0.5
    assert beta_mean(8, 0, 2, 2) == pytest.approx(10 / 12)
    assert beta_mean(0, 8, 2, 2) == pytest.approx(2 / 12)
    with pytest.raises(ValueError):
        beta_mean(-1, 0, 2, 2)


def _unit(*rows: Sequence[float]) -> npt.NDArray[np.float32]:
    m = np.asarray(rows, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_relevance_is_clamped_cosine() -> None:
    vectors = _unit([1, 0], [1, 0], [0, 1], [-1, 0])
    assert relevances(vectors) == pytest.approx([1.0, 0.0, 0.0])


def _ranked(
    confidences: dict[str, float], tracks: dict[str, float], s: AttentionSettings
) -> list[ScoredProposal]:
    outputs = parse_outputs(
        {sid: {"text": f"output of {sid}", "confidence": c} for sid, c in confidences.items()},
        default_confidence=0.5,
    )
    vectors = _unit([1, 0], *([1, 0] for _ in outputs))
    return rank(
        outputs,
        vectors=vectors,
        track_records=tracks,
        wave_id="w1",
        task_id="t1",
        at=datetime(2025, 1, 1, tzinfo=UTC),
        settings=s,
    )


def test_composite_is_the_weighted_sum_and_ranking_is_deterministic() -> None:
    s = settings()
    ranked = _ranked({"b": 0.5, "a": 0.5, "c": 1.0}, {"a": 0.5, "b": 0.5, "c": 0.0}, s)
    assert [p.specialist_id for p in ranked] == ["a", "b", "c"]  # tie a/b broken by id
    assert [p.rank for p in ranked] == [1, 2, 3]
    assert ranked[0].composite == pytest.approx(0.5 * 1 + 0.3 * 0.5 + 0.2 * 0.5)
    assert ranked[2].composite == pytest.approx(0.5 * 1 + 0.3 * 0.0 + 0.2 * 1.0)
    assert ranked[0].id == "w1/a"
    assert ranked[0].insight_key == f"insight/a/{content_digest('output of a')[:16]}"
    assert len(ranked[0].embedding) == 2


def test_selection_top_k_minimum_and_no_competition() -> None:
    ranked = _ranked({"a": 1.0, "b": 0.5, "c": 0.0}, {"a": 0.5, "b": 0.5, "c": 0.5}, settings())
    assert [p.selected for p in select(ranked, settings(top_k=2))] == [True, True, False]
    floor = ranked[1].composite + 1e-6
    assert [p.selected for p in select(ranked, settings(min_composite=floor))] == [
        True,
        False,
        False,
    ]
    assert [p.selected for p in select(ranked[:1], settings())] == [False]
    assert [p.selected for p in select(ranked[:1], settings(min_wave_outputs=1))] == [True]


# -- consensus -------------------------------------------------------------------------------


def test_consensus_operators() -> None:
    scores = [0.2, 0.5, 0.9]
    assert consensus_score(scores, "mean") == pytest.approx(1.6 / 3)
    assert consensus_score(scores, "median") == 0.5
    assert consensus_score(scores, "max") == 0.9
    assert consensus_score(scores, "min") == 0.2
    assert consensus_score([0.8, 0.8], "log_pool") == pytest.approx(0.8)
    assert consensus_score([0.5], "log-pool") == pytest.approx(0.5)
    # Agreement is rewarded: two confident voices pool above either.
    assert log_pool([0.7, 0.7, 0.9]) > 0.7
    assert 0.0 < log_pool([0.0, 1.0]) < 1.0
    assert consensus_score([], "mean") is None


def test_consensus_registry_and_unknown_names() -> None:
    with pytest.raises(ConfigurationError, match="unknown consensus operator 'nope'"):
        consensus_score([0.5], "nope")
    register_consensus_operator("unit_test_second_best", lambda v: sorted(v)[-2])
    assert "unit_test_second_best" in consensus_operators()
    assert consensus_score([0.1, 0.4, 0.3], "unit_test_second_best") == 0.3
    with pytest.raises(ConfigurationError, match="exists"):
        register_consensus_operator("mean", lambda v: 0.0)
    register_consensus_operator("unit_test_broken", lambda v: math.inf)
    with pytest.raises(ConfigurationError, match="not a finite number"):
        consensus_score([0.5], "unit_test_broken")
    with pytest.raises(InputValidationError):
        consensus_score([math.nan], "mean")


# -- telemetry -------------------------------------------------------------------------------


def test_telemetry_counts_and_reset() -> None:
    c = counters()
    c.wrote(3, ["a"], "b1")
    c.read("a", hit=True, mismatch_misses=3, strict=True)
    c.read("zz", hit=False, mismatch_misses=3, strict=True)
    snap = workspace_attention_telemetry()
    assert snap.as_dict() == {
        "waves": 1,
        "proposals_written": 3,
        "broadcasts_written": 1,
        "attention_reads": 2,
        "attention_hits": 1,
        "attention_misses": 1,
        "misses_after_own_broadcast": 0,
        "suspected_engine_mismatch": False,
    }
    reset_workspace_attention_telemetry()
    assert workspace_attention_telemetry().attention_reads == 0


def test_mismatch_warns_once_and_strict_raises() -> None:
    c = counters()
    c.wrote(2, ["a"], "b1")
    with pytest.warns(RuntimeWarning, match="different engines"):
        c.read("a", hit=False, mismatch_misses=3, strict=False)  # own broadcast missed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c.read("a", hit=False, mismatch_misses=3, strict=False)  # warned already
    assert workspace_attention_telemetry().suspected_engine_mismatch
    with pytest.raises(ConfigurationError, match="different engines"):
        c.read("a", hit=False, mismatch_misses=3, strict=True)


def test_a_miss_in_another_boundary_is_not_an_own_broadcast_miss() -> None:
    c = counters()
    c.wrote(2, ["a"], "b1")
    c.read("a", hit=True, mismatch_misses=3, strict=True, boundary_id="b1")
    c.read("a", hit=False, mismatch_misses=3, strict=True, boundary_id="b2")  # never won in b2
    assert workspace_attention_telemetry().misses_after_own_broadcast == 0
    with pytest.raises(ConfigurationError, match="broadcast a winner"):
        c.read("a", hit=False, mismatch_misses=3, strict=True)  # global: it won somewhere


def test_seed_condition_fires_after_sustained_misses_only() -> None:
    c = counters()
    c.wrote(2, ["a"], "b1")
    c.read("x", hit=False, mismatch_misses=3, strict=True)
    c.read("y", hit=False, mismatch_misses=3, strict=True)
    assert workspace_attention_telemetry().suspected_engine_mismatch
    with pytest.raises(ConfigurationError):
        c.read("z", hit=False, mismatch_misses=3, strict=True)


def test_telemetry_is_thread_safe() -> None:
    c = counters()

    def work() -> None:
        for _ in range(2000):
            c.wrote(2, [], None)
            c.read("s", hit=True, mismatch_misses=3, strict=True)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    snap = workspace_attention_telemetry()
    assert (snap.waves, snap.proposals_written, snap.attention_hits) == (16000, 32000, 16000)


# -- the loop through a recording executor ---------------------------------------------------


@dataclass
class RecordingExecutor:
    """Binds every call against the real catalog and answers reads from canned records."""

    answers: dict[str, Callable[[dict[str, Any]], list[Record]]] = field(default_factory=dict)
    calls: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)

    @property
    def database(self) -> str:
        return "neo4j"

    def _call(self, kind: str, name: str, params: dict[str, Any]) -> list[Record]:
        default_catalog()[name].bind(params)
        self.calls.append((kind, name, params))
        answer = self.answers.get(name)
        return answer(params) if answer else []

    def read(self, name: str, /, **params: Any) -> list[Record]:
        return self._call("read", name, params)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        return self._call("write", name, params)

    def read_tx(self, work: Callable[[Transaction], T]) -> T:
        raise AssertionError("not used")

    def write_tx(self, work: Callable[[Transaction], T]) -> T:
        raise AssertionError("not used")

    def names(self) -> list[str]:
        return [name for _, name, _ in self.calls]


@dataclass
class FakeEngine:
    executor: RecordingExecutor


class FakeEmbedder:
    """Texts mentioning 'cache' point along the query; others elsewhere."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.batches.append(list(texts))
        rows = [[1.0, 0.1] if "cache" in t else [0.1, 1.0] for t in texts]
        return _unit(*rows)


@dataclass(frozen=True)
class Decision:
    outcome: str
    entry_ids: tuple[str, ...]
    set_id: str | None = "set-1"
    receipt_id: str | None = "receipt-1"


class FakeSink:
    def __init__(self, outcome: str = "commit") -> None:
        self.outcome = outcome
        self.proposals: list[Proposal] = []

    def commit(self, proposal: Proposal) -> Decision:
        self.proposals.append(proposal)
        ids = tuple(proposal.entry_ids()) if self.outcome == "commit" else ()
        return Decision(self.outcome, ids)


def _executor(track: dict[str, tuple[int, int]] | None = None) -> RecordingExecutor:
    track = track or {}
    ex = RecordingExecutor()
    ex.answers["attention/track_records"] = ex.answers["attention/track_records_in_boundary"] = (
        lambda p: [
            {
                "specialist_id": s,
                "successes": track.get(s, (0, 0))[0],
                "failures": track.get(s, (0, 0))[1],
            }
            for s in p["specialist_ids"]
        ]
    )
    ex.answers["attention/write_proposals"] = lambda p: [{"written": len(p["rows"])}]
    return ex


OUTPUTS = {
    "alpha": {"text": "Add a cache in front of the database.", "confidence": 0.9},
    "beta": "Rewrite everything in another language.",
    "gamma": "Cache the hot rows.\nconfidence: 0.6",
}


def test_one_wave_encodes_once_reads_once_writes_once_and_proposes_winners() -> None:
    ex, embedder, sink = _executor({"beta": (0, 6)}), FakeEmbedder(), FakeSink()
    attention = WorkspaceAttention(
        FakeEngine(ex), boundary_id="b1", sink=sink, settings=settings(), embedder=embedder
    )
    result = attention.select_and_broadcast(
        OUTPUTS, "how do we make reads faster with a cache?", "task-1"
    )

    assert len(embedder.batches) == 1 and len(embedder.batches[0]) == 4
    assert ex.names() == [
        "attention/track_records_in_boundary",
        "attention/write_proposals",
        "attention/standing_entries",
        "attention/record_gate_outcomes",
    ]
    rows = ex.calls[1][2]["rows"]
    assert {r["specialist_id"]: r["selected"] for r in rows} == {
        "alpha": True,
        "gamma": True,
        "beta": False,
    }
    assert all("embedding" not in r and r["task_id"] == "task-1" for r in rows)
    beta = next(p for p in result.proposals if p.specialist_id == "beta")
    assert beta.track_record == pytest.approx(2 / 10)
    assert [w.specialist_id for w in result.winners] == ["alpha", "gamma"]
    assert [p.specialist_id for p in result.losers] == ["beta"]

    proposal = sink.proposals[0]
    assert proposal.writer_id == "alpha" and proposal.writer_kind == WriterKind.AGENT
    assert proposal.boundary_id == "b1" and proposal.targets == ("insight/alpha",)
    assert proposal.entries[0].entry_class == EntryClass.FACT
    assert proposal.entries[0].key == result.winners[0].insight_key
    outcomes = ex.calls[3][2]["rows"]
    assert [(o["outcome"], o["entry_ids"]) for o in outcomes] == [
        ("commit", [f"attention/{result.winners[0].id}#0"]),
        ("commit", [f"attention/{result.winners[1].id}#0"]),
    ]
    assert result.broadcast
    snap = workspace_attention_telemetry()
    assert (snap.waves, snap.proposals_written, snap.broadcasts_written) == (1, 3, 2)


def test_repeat_win_reinforces_the_standing_entry_instead_of_proposing_a_copy() -> None:
    ex, sink = _executor(), FakeSink()
    standing_key = {}

    def standing(params: dict[str, Any]) -> list[Record]:
        return [
            {"key": k, "entry_id": standing_key[k]} for k in params["keys"] if k in standing_key
        ]

    ex.answers["attention/standing_entries"] = standing
    attention = WorkspaceAttention(
        FakeEngine(ex), boundary_id="b1", sink=sink, settings=settings(), embedder=FakeEmbedder()
    )
    proposals = attention.collect_proposals(OUTPUTS, "cache?", "task-1")
    alpha = next(p for p in proposals if p.specialist_id == "alpha")
    standing_key[alpha.insight_key] = "entry-alpha"
    result = attention.broadcast_to_kg(attention.select_winners(proposals), proposals)
    assert [p.writer_id for p in sink.proposals] == ["gamma"]
    by_id = {o.specialist_id: o for o in result.outcomes}
    assert by_id["alpha"].outcome == WinnerFate.REINFORCE
    assert by_id["alpha"].entry_ids == ("entry-alpha",)


def test_halted_winner_links_no_entry() -> None:
    ex = _executor()
    attention = WorkspaceAttention(
        FakeEngine(ex),
        boundary_id="b1",
        sink=FakeSink("halt"),
        settings=settings(),
        embedder=FakeEmbedder(),
    )
    result = attention.select_and_broadcast(OUTPUTS, "cache?", "task-1")
    assert {o.outcome for o in result.outcomes} == {"halt"}
    assert all(r["entry_ids"] == [] for r in ex.calls[-1][2]["rows"])


def test_a_lone_output_is_recorded_but_not_broadcast() -> None:
    ex, sink = _executor(), FakeSink()
    attention = WorkspaceAttention(
        FakeEngine(ex), boundary_id="b1", sink=sink, settings=settings(), embedder=FakeEmbedder()
    )
    result = attention.select_and_broadcast({"alpha": "cache it"}, "cache?", "task-1")
    assert result.winners == () and not result.broadcast
    assert ex.names() == ["attention/track_records_in_boundary", "attention/write_proposals"]
    assert ex.calls[1][2]["rows"][0]["selected"] is False
    assert sink.proposals == []
    # broadcast_to_kg applies the same rule to a lone "winner" handed to it directly.
    lone = attention.collect_proposals({"alpha": "cache it"}, "cache?", "task-1")
    assert attention.broadcast_to_kg(lone).winners == ()


def test_without_a_gate_winners_are_recorded_not_proposed() -> None:
    ex = _executor()
    attention = WorkspaceAttention(
        FakeEngine(ex), settings=settings(), embedder=FakeEmbedder(), scope="global"
    )
    result = attention.select_and_broadcast(OUTPUTS, "cache?", "task-1")
    assert len(result.winners) == 2 and not result.broadcast
    assert "attention/record_gate_outcomes" not in ex.names()


def test_construction_errors() -> None:
    ex = _executor()
    with pytest.raises(ConfigurationError, match="needs the boundary_id"):
        WorkspaceAttention(FakeEngine(ex), sink=FakeSink(), settings=settings())
    with pytest.raises(ConfigurationError, match="has no gate"):
        WorkspaceAttention(FakeEngine(ex), boundary_id="b1", settings=settings())


def test_bad_calls_are_refused() -> None:
    attention = WorkspaceAttention(
        FakeEngine(_executor()), settings=settings(), embedder=FakeEmbedder(), scope="global"
    )
    with pytest.raises(InputValidationError, match="query"):
        attention.collect_proposals(OUTPUTS, " ", "task-1")
    with pytest.raises(InputValidationError, match="task id"):
        attention.collect_proposals(OUTPUTS, "q", "")
    with pytest.raises(InputValidationError, match="at least one"):
        attention.select_and_broadcast({}, "q", "task-1")
    with pytest.raises(InputValidationError, match="not one of"):
        attention.record_outcome("w/a", "great")
    with pytest.raises(InputValidationError, match="no ProposalNode"):
        attention.record_outcome("w/a", "invalidated")
    mixed = attention.collect_proposals(OUTPUTS, "q", "t") + attention.collect_proposals(
        OUTPUTS, "q", "t"
    )
    with pytest.raises(InputValidationError, match="one wave"):
        attention.broadcast_to_kg(mixed[:2], mixed[2:])


def test_score_reads_count_hits_and_misses() -> None:
    ex = _executor()
    ex.answers["attention/score"] = lambda p: (
        [{"composite": 0.75, "id": "w/a"}] if p["specialist_id"] == "a" else []
    )
    attention = WorkspaceAttention(FakeEngine(ex), settings=settings(), scope="global")
    assert attention.get_attention_score("a") == 0.75
    assert attention.get_attention_score("unknown") is None
    snap = attention.workspace_attention_telemetry()
    assert (snap.attention_reads, snap.attention_hits, snap.attention_misses) == (2, 1, 1)


def test_scores_and_track_records_are_read_per_boundary_by_default() -> None:
    ex = _executor()
    ex.answers["attention/score_in_boundary"] = lambda p: (
        [{"composite": 0.5, "id": "w/a"}] if p["boundary_id"] == "b1" else []
    )
    ex.answers["attention/record_outcome"] = lambda p: [{"id": p["proposal_id"]}]
    boundary = WorkspaceAttention(
        FakeEngine(ex),
        boundary_id="b1",
        sink=FakeSink(),
        settings=settings(),
        embedder=FakeEmbedder(),
    )
    assert boundary.scope is AttentionScope.BOUNDARY
    read = boundary.attention_score("a")
    assert (read.score, read.scope, read.boundary_id) == (0.5, AttentionScope.BOUNDARY, "b1")
    boundary.collect_proposals(OUTPUTS, "cache?", "task-1")
    boundary.record_outcome("w/a", "invalidated")
    by_name = {name: params for _, name, params in ex.calls}
    assert by_name["attention/score_in_boundary"]["boundary_id"] == "b1"
    assert by_name["attention/track_records_in_boundary"]["boundary_id"] == "b1"
    assert by_name["attention/record_outcome"]["boundary_id"] == "b1"
    assert "attention/score" not in by_name and "attention/track_records" not in by_name
    # global is the explicit option: it reads across boundaries but still writes its own
    everywhere = WorkspaceAttention(
        FakeEngine(ex),
        boundary_id="b1",
        sink=FakeSink(),
        settings=settings(),
        embedder=FakeEmbedder(),
        scope=AttentionScope.GLOBAL,
    )
    ex.answers["attention/score"] = lambda p: [{"composite": 0.25, "id": "w/b"}]
    assert everywhere.attention_score("a") == AttentionScore("a", 0.25, AttentionScope.GLOBAL, None)
    everywhere.select_and_broadcast(OUTPUTS, "cache?", "task-2")
    written = [params for _, name, params in ex.calls if name == "attention/write_proposals"]
    assert written[-1]["boundary_id"] == "b1"


def test_the_boundary_scope_needs_a_boundary_and_a_scope_is_one_of_two() -> None:
    with pytest.raises(ConfigurationError, match="per boundary"):
        WorkspaceAttention(FakeEngine(_executor()), settings=settings())
    with pytest.raises(ConfigurationError, match="per boundary"):
        WorkspaceAttention(FakeEngine(_executor()), settings=settings(), scope="boundary")
    with pytest.raises(InputValidationError, match="not one of"):
        WorkspaceAttention(FakeEngine(_executor()), settings=settings(), scope="team")
    from_settings = WorkspaceAttention(
        FakeEngine(_executor()), settings=settings(scope=AttentionScope.GLOBAL)
    )
    assert from_settings.scope is AttentionScope.GLOBAL


def test_insight_proposal_validates_as_a_gate_proposal() -> None:
    ranked = _ranked({"a": 0.5, "b": 0.5}, {"a": 0.5, "b": 0.5}, settings())
    proposal = insight_proposal(ranked[0], "boundary-1")
    assert Proposal.model_validate(proposal.model_dump(by_alias=True)) == proposal
    assert proposal.entries[0].attributes["proposal_node_id"] == ranked[0].id


def test_a_proposal_node_stores_no_writer_source_or_uncut_digest_of_its_own() -> None:
    from kg_context.attention.store import AttentionStore
    from kg_context.text.thoughts import THOUGHT_MAX_CHARS
    from kg_context.vocabulary import WaveReason

    ex = _executor()
    at = datetime(2026, 1, 1, tzinfo=UTC)
    texts = {"short": "Cache the hot rows.", "long": "x" * (THOUGHT_MAX_CHARS + 1)}
    proposals = [
        ScoredProposal(
            id=f"w/{name}",
            wave_id="w",
            specialist_id=name,
            task_id="t",
            text=text,
            digest=content_digest(text),
            relevance=0.5,
            track_record=0.5,
            confidence=0.5,
            confidence_source=ConfidenceSource.DEFAULT,
            composite=0.5,
            rank=1,
            at=at,
            embedding=(0.0,),
        )
        for name, text in texts.items()
    ]
    reasons = {p.id: WaveReason.OUTRANKED for p in proposals}
    assert AttentionStore(ex).write_wave(proposals, "b1", reasons) == 2
    ((_, name, params),) = ex.calls
    assert name == "attention/write_proposals" and "thought_source" not in params
    rows = {r["specialist_id"]: r for r in params["rows"]}
    assert all("writer_id" not in r for r in rows.values())  # specialist_id is the writer
    # An uncut text's digest is its text's (content_digest of the stored text): not stored.
    assert rows["short"]["digest"] is None and rows["short"]["text"] == texts["short"]
    assert rows["long"]["digest"] == content_digest(texts["long"])  # the whole text's
    assert rows["long"]["text_truncated"] is True
    code = " ".join(
        line
        for line in default_catalog()["attention/write_proposals"].text.splitlines()
        if not line.lstrip().startswith("//")
    )
    assert "writer_id" not in code and "thought_source" not in code
