"""Retention policies that differ: what reconstructible saves, what it costs.

Two fresh boundaries get the same work through the gate: ``ROOTS`` commits, each one decision
root requiring three new facts with a long lease (1,000 sets), soft on one boundary and
reconstructible on the other, with the czar's cadence off (the czar runs are the benchmark's).
Then ``CZAR_RUNS`` czar runs each.

Figures: the resident tokens after the czar on each and their ratio (reconstructible / soft: the
facts leave while recall can rebuild them; target <= 0.5), the median reachability time on each,
before the czar (every reconstructible target standing: the rebuildable check's worst case) and
after, and their ratios (target <= 1.5), and the boundary's work seq against its seq after the
czar ran (leases count work only: the czar's sets are the difference). The two boundaries'
reachability is timed alternately run by run, so drift on a shared server hits both alike.

    python -m benchmarks.retention          # 60 roots a boundary, 20 timed runs
    python -m benchmarks.retention --quick  # 15 roots, 5 runs (the test suite)
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import Callable
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    median,
    open_engine,
    statements_during,
)
from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable
from kg_context.settings import EngineSettings, ResidencySettings

CZAR_RUNS = 3
POLICIES = ("soft", "reconstructible")


def _work(boundary: Any, boundary_id: str, policy: str, roots: int) -> None:
    for n in range(roots):
        facts = [f"{boundary_id}-f{n}-{i}" for i in range(3)]
        entries: list[dict[str, Any]] = [
            {
                "id": fact,
                "class": "fact",
                "key": fact,
                "body": f"measured fact {fact} with a body of some length to count",
                "attributes": {"source": "bench"},
            }
            for fact in facts
        ]
        entries.append(
            {
                "class": "decision",
                "key": f"d{n}",
                "body": f"decision {n} built on three facts",
                "requires": [
                    {"entry_id": fact, "policy": policy, "lease_sets": 1000} for fact in facts
                ],
            }
        )
        decision = boundary.commit(
            {
                "id": f"{boundary_id}-p{n}",
                "boundary_id": boundary_id,
                "writer_id": "bench-writer",
                "writer_kind": "agent",
                "targets": [f"t{n}"],
                "entries": entries,
            }
        )
        assert decision.outcome == "commit", (decision.reason_code, decision.detail)


def _reach(boundary: Any) -> Any:
    return lambda: reachable(boundary)


def _interleaved(fns: dict[str, Callable[[], Any]], runs: int, warmup: int = 3) -> dict[str, float]:
    """Each function's median time, timed run by run in turn."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for i in range(warmup + runs):
        for name, fn in fns.items():
            started = time.perf_counter()
            fn()
            if i >= warmup:
                samples[name].append(time.perf_counter() - started)
    return {name: median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    quick = parser.parse_args().quick
    roots, runs = (15, 5) if quick else (60, 20)
    settings = EngineSettings(residency=ResidencySettings(czar_every_commits=0))
    engine, counts = open_engine("retention", settings=settings)
    with engine:
        boundaries = {}
        for policy in POLICIES:
            boundary_id = f"bench-retention-{policy}-{uuid.uuid4().hex[:8]}"
            boundaries[policy] = engine.boundary(boundary_id)
            _work(boundaries[policy], boundary_id, policy, roots)
        # before the czar: every reconstructible target still stands (the check's worst case)
        before = _interleaved({p: _reach(boundary) for p, boundary in boundaries.items()}, runs)
        for boundary in boundaries.values():
            for _ in range(CZAR_RUNS):
                report = run_czar(boundary)
                assert report.committed, report.summary()
        for boundary in boundaries.values():
            _, names = statements_during(engine, _reach(boundary))
            check_plans(engine, names)  # what is compared seeks by index, or the run stops
        after = _interleaved({p: _reach(boundary) for p, boundary in boundaries.items()}, runs)
        results: dict[str, dict[str, Any]] = {}
        for policy, boundary in boundaries.items():
            state = boundary.state()
            results[policy] = {
                "resident_tokens": boundary.stats().resident_tokens,
                "reach": after[policy],
                "reach_before": before[policy],
                "seq": state.seq,
                "work_seq": state.work_seq,
            }
        soft, rebuilt = results["soft"], results["reconstructible"]
        figure("retention_resident_tokens_soft", soft["resident_tokens"], "tokens")
        figure("retention_resident_tokens_reconstructible", rebuilt["resident_tokens"], "tokens")
        ratio = rebuilt["resident_tokens"] / soft["resident_tokens"]
        figure("retention_resident_reconstructible_vs_soft", ratio, "ratio", "<= 0.5", ratio <= 0.5)
        cost = rebuilt["reach"] / soft["reach"]
        figure("retention_reachable_ms_soft", soft["reach"] * 1000, "ms")
        figure("retention_reachable_ms_reconstructible", rebuilt["reach"] * 1000, "ms")
        figure("retention_reachable_reconstructible_vs_soft", cost, "ratio", "<= 1.5", cost <= 1.5)
        first = rebuilt["reach_before"] / soft["reach_before"]
        figure("retention_reachable_ms_soft_before_czar", soft["reach_before"] * 1000, "ms")
        figure(
            "retention_reachable_ms_reconstructible_before_czar",
            rebuilt["reach_before"] * 1000,
            "ms",
        )
        figure(
            "retention_reachable_reconstructible_vs_soft_before_czar",
            first,
            "ratio",
            "<= 1.5",
            first <= 1.5,
        )
        figure("retention_seq_reconstructible", rebuilt["seq"], "sets")
        figure("retention_work_seq_reconstructible", rebuilt["work_seq"], "sets")
        count_figures(counts)


if __name__ == "__main__":
    main()
