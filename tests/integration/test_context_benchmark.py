"""The context benchmark's quick variant on the real Neo4j: it builds its 200-entry window through
the gate (once; later runs reuse it), measures both ratios in one run, checks the plans of the
statements it compares, and prints each figure as one well-formed JSON line (wall-clock figures
are printed, never asserted)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from benchmarks import context


def test_the_quick_context_benchmark_prints_well_formed_figures(
    engine: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    context.main(["--quick"], engine=engine)
    out = capsys.readouterr().out
    figures = [json.loads(line) for line in out.splitlines()]
    by_name = {}
    for f in figures:
        assert list(f) == ["metric", "value", "unit", "target", "met"], f
        assert isinstance(f["value"], int | float) and math.isfinite(f["value"]), f
        assert (f["target"] is None) == (f["met"] is None), f
        by_name[f["metric"]] = f
    assert len(by_name) == len(figures), "a figure was printed twice"
    assert by_name["context_window_entries"]["value"] == 200
    assert by_name["context_p50_over_window_p50"]["target"] == "<= 1.5"
    assert by_name["context_query_p50_over_window_p50"]["target"] == "<= 2.5"
    for name in ("context_p50_over_window_p50", "context_query_p50_over_window_p50"):
        assert by_name[name]["value"] > 0
    # the window is larger than the budget, and the context keeps to it, with and without a query
    assert by_name["context_window_tokens"]["value"] > context.BUDGET
    assert by_name["context_tokens"]["met"] is True
    assert by_name["context_query_tokens"]["met"] is True
