"""The benchmarks' honest-baseline check: a compared statement that plans a scan
stops the run, one that seeks by index passes (the plans here are shaped as the driver reports
them; tests/integration/test_scale_benchmark.py runs the check on the real server's plans)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks._common import ScanningPlan, check_plans, operators


def _plan(operator: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"operatorType": operator, "args": {}, "children": list(children)}


SEEK = _plan(
    "ProduceResults@neo4j",
    _plan("Apply@neo4j", _plan("NodeUniqueIndexSeek@neo4j"), _plan("Expand(All)@neo4j")),
)
SCAN = _plan(
    "ProduceResults@neo4j",
    _plan("CartesianProduct@neo4j", _plan("NodeByLabelScan@neo4j"), _plan("Argument@neo4j")),
)


class _Executor:
    def __init__(self, plans: dict[str, dict[str, Any]]) -> None:
        self.plans = plans

    def explain(self, name: str, /, **params: Any) -> dict[str, Any]:
        return self.plans[name]


class _Engine:
    def __init__(self, plans: dict[str, dict[str, Any]]) -> None:
        self.executor = _Executor(plans)


def test_operators_lists_the_whole_tree_without_the_runtime_suffix() -> None:
    assert operators(SCAN) == ["ProduceResults", "CartesianProduct", "NodeByLabelScan", "Argument"]


def test_statements_that_seek_pass_and_report_their_operators() -> None:
    found = check_plans(_Engine({"gate/write_plan": SEEK}), ["gate/write_plan"])  # type: ignore[arg-type]
    assert "NodeUniqueIndexSeek" in found["gate/write_plan"]


def test_a_statement_that_scans_stops_the_run_and_is_named() -> None:
    engine = _Engine({"gate/write_plan": SEEK, "bench/commit_bare_full_edges": SCAN})
    with pytest.raises(ScanningPlan, match="bench/commit_bare_full_edges") as raised:
        check_plans(engine, ["gate/write_plan", "bench/commit_bare_full_edges"])  # type: ignore[arg-type]
    assert "gate/write_plan" not in str(raised.value)
