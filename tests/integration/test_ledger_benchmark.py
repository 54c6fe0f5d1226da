"""The ledger benchmark's quick variant on the real Neo4j: both boundaries are built through the
gate, the sealed one verifies clean with one record per set, the unsealed one reports its sets
unchained, and every figure is one well-formed JSON line (no wall-clock time is asserted)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from benchmarks import ledger


def test_the_quick_ledger_benchmark_verifies_and_prints_its_figures(
    engine: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger.main(["--quick"], engine=engine)
    figures = {}
    for line in capsys.readouterr().out.splitlines():
        f = json.loads(line)
        assert list(f) == ["metric", "value", "unit", "target", "met"], f
        assert isinstance(f["value"], int | float) and math.isfinite(f["value"]), f
        figures[f["metric"]] = f
    assert figures["ledger_sets"]["value"] == ledger.QUICK_SETS
    for name in (
        "ledger_verify_records",
        "ledger_verify_findings",
        "ledger_unsealed_unchained_sets",
    ):
        assert figures[name]["met"] is True, figures[name]
    for name in ("ledger_commit_overhead_pct", "ledger_seal_share_pct", "ledger_verify_s"):
        assert name in figures
