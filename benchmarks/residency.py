"""Residency cost tracks live state, not history; and the czar's time per compaction set.

Two generated boundaries hold the same 2,000 live entries (200 decision roots, each the head of
a block of ten: decision -hard-> fact -soft-> fact ... with long leases) and 10,000 or 200,000
retired entries in the record. Every retired entry is wired to the live graph (a REQUIRES edge
into a live entry and a DERIVED_FROM out of one), and 2,000 of them are targets of expired soft
leases out of live entries, so history touches the live part without being on any live path.
They are generated with benchmark-only Cypher (cypher/bench/, UNWIND, 50,000 rows per
transaction) and reused by later runs (never deleted).

Figures: median reachability time for each, their ratio (target <= 1.3), the czar's planning time
on each (nothing to compact), and the czar's time per compaction set on a fresh scripted
boundary (plan + gate commit, through ``Boundary.commit``). The engine runs with the czar's
cadence off (``czar_every_commits=0``): the scripted boundary's work is left for the one czar run
that is timed, instead of being done piecemeal inside its commits.

    python -m benchmarks.residency          # 2,000 live beside 10,000 and 200,000 retired
    python -m benchmarks.residency --quick  # seconds (the test suite): 200 beside 1,000 and 4,000
"""

from __future__ import annotations

import argparse
import time
import uuid
from dataclasses import dataclass
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    median,
    open_engine,
    statements_during,
    timings,
)
from kg_context.engine import Engine
from kg_context.gate.io.store import now_iso
from kg_context.gate.pure.constitution import load_constitution
from kg_context.residency.czar import plan_compaction, run_czar
from kg_context.residency.reachability import reachable
from kg_context.settings import EngineSettings, ResidencySettings

CHUNK = 50_000
TARGET_RATIO = 1.3


@dataclass(frozen=True, slots=True)
class Size:
    live: int = 2_000
    small: int = 10_000  # retired entries beside the live ones, the small history
    large: int = 200_000  # and the large one
    runs: int = 30
    czar_sessions: int = 3
    czar_sets: int = 100


QUICK = Size(live=200, small=1_000, large=4_000, runs=5, czar_sessions=1, czar_sets=20)


def _ensure(engine: Engine, live: int, retired: int) -> str:
    boundary_id = f"bench-residency-live{live}-retired{retired}"
    engine.boundary(boundary_id)
    counts = {
        r["status"]: r["n"]
        for r in engine.executor.read("bench/residency_counts", boundary_id=boundary_id)
    }
    if counts.get("live") == live and counts.get("retired") == retired:
        return boundary_id
    if counts:
        raise SystemExit(
            f"boundary {boundary_id} holds {counts}, not the expected shape; it is never "
            "deleted: rename the benchmark boundary"
        )
    set_id = f"{boundary_id}/generated"
    now = now_iso()
    ex = engine.executor
    ex.write(
        "bench/residency_live_entries",
        boundary_id=boundary_id,
        start=0,
        end=live,
        set_id=set_id,
        now=now,
    )
    ex.write("bench/residency_live_edges", boundary_id=boundary_id, start=0, end=live)
    for start in range(0, retired, CHUNK):
        ex.write(
            "bench/residency_retired_entries",
            boundary_id=boundary_id,
            start=start,
            end=min(retired, start + CHUNK),
            live=live,
            set_id=set_id,
            now=now,
        )
    return boundary_id


def _scripted_session(engine: Engine, sets: int) -> Any:
    """A fresh boundary with ``sets`` committed sets the czar has work on: facts held by soft
    leases that run out, and superseded-by-default questions."""
    boundary_id = f"bench-czar-{uuid.uuid4().hex[:12]}"
    boundary = engine.boundary(boundary_id)
    proposals: list[dict[str, Any]] = [
        {
            "id": f"{boundary_id}-p0",
            "boundary_id": boundary_id,
            "writer_id": "bench-agent",
            "writer_kind": "agent",
            "targets": ["t0"],
            "entries": [{"class": "goal", "key": "g", "body": "the goal"}],
        }
    ]
    for i in range(1, sets):
        fact = f"{boundary_id}-f{i}"
        proposals.append(
            {
                "id": f"{boundary_id}-p{i}",
                "boundary_id": boundary_id,
                "writer_id": "bench-agent",
                "writer_kind": "agent",
                "targets": [f"t{i}"],
                "entries": [
                    {
                        "id": fact,
                        "class": "fact",
                        "key": f"fact-{i}",
                        "body": f"observation {i}",
                        "attributes": {"source": "bench"},
                    },
                    {
                        "class": "decision",
                        "key": f"dec-{i}",
                        "body": f"decision {i}",
                        "requires": [
                            {
                                "entry_id": fact,
                                "policy": "soft",
                                "lease_sets": 3,
                                "needs": ["body"],
                            }
                        ],
                    },
                ],
            }
        )
    boundary.commit_many(proposals)
    return boundary


def run(size: Size) -> None:
    constitution = load_constitution()
    # The cadence off: the scripted boundaries' compaction is left to the timed czar run.
    settings = EngineSettings(residency=ResidencySettings(czar_every_commits=0))
    engine, counts = open_engine("residency", settings=settings)  # ensures the schema
    with engine:
        small = _ensure(engine, size.live, size.small)
        large = _ensure(engine, size.live, size.large)

        def once_each() -> None:
            reachable(engine.boundary(large), constitution=constitution)
            plan_compaction(
                engine.executor, large, constitution, settings=engine.settings.residency
            )

        _, names = statements_during(engine, once_each)
        check_plans(engine, names)  # what is compared seeks by index, or the run stops
        results = {}
        for name, boundary_id in (("small", small), ("large", large)):
            handle = engine.boundary(boundary_id)
            reach = reachable(handle, constitution=constitution)
            assert len(reach.reached) == size.live, (boundary_id, len(reach.reached))

            def reach_once(b: Any = handle) -> object:
                return reachable(b, constitution=constitution)

            samples = timings(reach_once, size.runs, warmup=5)
            results[name] = median(samples)
        count_figures(counts)
        shape = f"live{size.live}_retired"
        figure(f"reachability_ms_{shape}{size.small}", results["small"] * 1000, "ms")
        figure(f"reachability_ms_{shape}{size.large}", results["large"] * 1000, "ms")
        ratio = results["large"] / results["small"]
        figure(
            f"reachability_ratio_{size.large // 1000}k_vs_{size.small // 1000}k_retired",
            ratio,
            "x",
            f"<= {TARGET_RATIO}",
            ratio <= TARGET_RATIO,
        )
        for retired, boundary_id in ((size.small, small), (size.large, large)):

            def plan_once(b: str = boundary_id) -> object:
                return plan_compaction(
                    engine.executor, b, constitution, settings=engine.settings.residency
                )

            samples = timings(plan_once, 10, warmup=2)
            figure(f"czar_plan_ms_{shape}{retired}", median(samples) * 1000, "ms")

        per_set: list[float] = []
        for _ in range(size.czar_sessions):
            boundary = _scripted_session(engine, size.czar_sets)
            started = time.perf_counter()
            report = run_czar(boundary)
            elapsed = time.perf_counter() - started
            assert report.committed and report.decisions, report.summary()
            per_set.append(elapsed / len(report.decisions))
        figure(f"czar_ms_per_compaction_set_{size.czar_sets}_sets", median(per_set) * 1000, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    args = parser.parse_args()
    run(QUICK if args.quick else Size())


if __name__ == "__main__":
    main()
