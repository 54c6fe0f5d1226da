"""The scale benchmark's quick variant on the real Neo4j: it builds its database at
three sizes through the gate, measures every figure, checks the plan of every statement it
compared, and prints each figure as one well-formed JSON line."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from benchmarks import scale
from kg_context.settings import LocalServerSettings

# Every comparison the issue asks for, at the largest size against the 1% one.
RATIOS = {
    "scale_commit_p50_ratio_100pct_over_1pct": "<= 1.2",
    "scale_commit_p99_ratio_100pct_over_1pct": "<= 1.2",
    "scale_recall_p50_ratio_100pct_over_1pct": "<= 1.5",
    "scale_reachability_p50_ratio_100pct_over_1pct": "<= 1.3",
    "scale_czar_plan_p50_ratio_100pct_over_1pct": "<= 1.3",
    "scale_walk_p50_ratio_100pct_over_1pct": "<= 1.3",
    "scale_attention_score_p50_ratio_100pct_over_1pct": "<= 1.2",
}


def test_the_quick_scale_benchmark_prints_well_formed_figures(
    engine: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    scale.main(["--quick"], engine=engine)
    out = capsys.readouterr().out
    figures = [json.loads(line) for line in out.splitlines()]
    assert figures, "no figures printed"
    by_name = {}
    for f in figures:
        assert list(f) == ["metric", "value", "unit", "target", "met"], f
        assert isinstance(f["value"], int | float) and math.isfinite(f["value"]), f
        assert (f["target"] is None) == (f["met"] is None), f
        assert f["met"] is None or isinstance(f["met"], bool), f
        by_name[f["metric"]] = f
    assert len(by_name) == len(figures), "a figure was printed twice"
    for name, target in RATIOS.items():
        assert by_name[name]["target"] == target and by_name[name]["value"] > 0
    for label in ("1pct", "10pct", "100pct"):
        assert by_name[f"scale_commit_p50_over_bare_at_{label}"]["target"] == "<= 2.0"
        recall = by_name[f"scale_recall_at_10_at_{label}"]
        assert recall["target"] == ">= 0.95" and 0.0 <= recall["value"] <= 1.0
        assert by_name[f"scale_sets_at_{label}"]["value"] > 0
    assert by_name["scale_sets_at_100pct"]["value"] > by_name["scale_sets_at_10pct"]["value"]
    assert (
        by_name["scale_history_at_100pct"]["value"]
        == 100 * by_name["scale_history_at_1pct"]["value"]
    )
    assert by_name["store_nodes_at_start"]["unit"] == "nodes"
    assert by_name["scale_server_heap_max_bytes"]["value"] > 0


def test_the_quick_scale_benchmark_runs_without_proposal_nodes(
    engine: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ProposalNodes: no attention score to measure, every other figure as before; on the
    local server, the store on disk by component as well."""
    argv = ["--quick", "--proposal-nodes", "0"]
    local = engine.target.source == "local"
    if local:
        argv += ["--neo4j-home", str(LocalServerSettings().home_dir.resolve())]
    scale.main(argv, engine=engine)
    by_name = {f["metric"]: f for f in map(json.loads, capsys.readouterr().out.splitlines())}
    assert by_name["scale_proposal_nodes_at_100pct"]["value"] == 0
    assert not [name for name in by_name if "attention_score" in name]
    assert by_name["scale_recall_at_10_at_100pct"]["value"] == 1.0
    assert by_name["scale_commit_p50_ratio_100pct_over_1pct"]["value"] > 0
    if local:
        assert by_name["scale_store_bytes_node_store"]["value"] > 0
        assert by_name["scale_store_bytes_transaction_logs"]["value"] > 0
        assert by_name["scale_store_bytes_index_entry_boundary_id"]["value"] > 0
