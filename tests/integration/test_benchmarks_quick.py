"""Every benchmark's quick variant runs to the end against the suite's database, as a user runs it
(``python -m benchmarks.<name> --quick``, a process of its own), and ends with its figures: one
well-formed JSON line each. So a benchmark that crashes, or stops on an assertion of its own,
fails the suite. Whether a quick run meets its targets is not asserted: its sizes are too small
for the ratios to mean what they mean at full size.

The scale benchmark's quick variant runs in tests/integration/test_scale_benchmark.py, the
context's in test_context_benchmark.py, the triangle's in test_triangle.py and the soak's in
tests/reliability/test_soak.py; they are not run twice."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli import target_env

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
RUN_ELSEWHERE = {"scale", "context"}
NAMES = sorted(path.stem for path in BENCHMARKS.glob("[!_]*.py") if path.stem not in RUN_ELSEWHERE)
FIELDS = ["metric", "value", "unit", "target", "met"]


def _has_quick(name: str) -> bool:
    return '"--quick"' in (BENCHMARKS / f"{name}.py").read_text(encoding="utf-8")


def _figures(out: str) -> list[dict[str, Any]]:
    """The figure lines at the end of stdout (every line, in fact: stdout carries them alone)."""
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines, "no figures printed"
    return [json.loads(line) for line in lines]


def test_the_benchmarks_are_found() -> None:
    """The parametrization below has the benchmarks to run, each with a quick variant."""
    assert {"invalidation", "residency", "concurrency", "retention", "search_bound"} <= set(NAMES)
    for name in RUN_ELSEWHERE:
        assert name not in NAMES and (BENCHMARKS / f"{name}.py").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_quick_variant_runs_to_the_end_and_prints_its_figures(
    name: str, neo4j_target: Any
) -> None:
    assert _has_quick(name), f"benchmarks/{name}.py has no --quick variant"
    env = target_env(neo4j_target, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", "--quick"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"benchmarks.{name} --quick failed:\n{done.stderr[-3000:]}"
    figures = _figures(done.stdout)
    names = [f["metric"] for f in figures]
    assert len(set(names)) == len(names), f"a figure was printed twice: {names}"
    for f in figures:
        assert list(f) == FIELDS, f
        assert isinstance(f["metric"], str) and f["metric"], f
        assert isinstance(f["value"], int | float) and math.isfinite(f["value"]), f
        assert isinstance(f["unit"], str) and f["unit"], f
        assert f["target"] is None or isinstance(f["target"], str), f
        assert f["met"] is None or isinstance(f["met"], bool), f
    assert {"store_nodes_at_start", "store_relationships_at_start"} <= set(names)
