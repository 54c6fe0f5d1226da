"""The invalidation walk for a 10,000-descendant blast radius versus a bare traversal.

The graph: one root entry and 10,000 descendants in four levels (10, 90, 900, 9,000) of a
provenance DAG: every entry derives from one parent in the level above (essential 85% of the
time), and one in five also from a second parent there (supporting), so many descendants are
reachable by more than one path and the grading (essential versus supporting) matters. It is
generated once with benchmark-only Cypher (``cypher/bench/invalidation_generate``) in a fixed
boundary and reused by later runs (never deleted).

Timed alternately run by run (60 each after 10 warm-up runs), in this one process against the
same server, both returning ids to Python:
- ours: ``kg_context.record.walk.walk`` (the product's walk: a breadth-first search in pages of
  at most 2,000 entries of one level, each one statement that streams the DERIVED_FROM rows into
  them, in one read transaction; essential/supporting grading, depth and size bounds, boundary
  filter, the status check of what may move to at_risk, in Python);
- bare: one variable-length ``MATCH (root)<-[:DERIVED_FROM*]-(d)`` returning
  ``collect(DISTINCT d.id)`` (one list, so both pay the same kind of transfer).
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    median,
    open_engine,
    percentile,
    statements_during,
)
from kg_context.record.walk import walk

BOUNDARY = "bench-invalidation-v1"
LEVELS = (10, 90, 900, 9_000)
DESCENDANTS = sum(LEVELS)
BATCH = 2_000
RUNS = 60
WARMUP = 10
TARGET_RATIO = 1.5


def _rows() -> list[dict[str, Any]]:
    rng = random.Random(10_000)
    root = f"{BOUNDARY}-root"
    rows: list[dict[str, Any]] = [{"id": root, "level": 0, "parents": []}]
    above = [root]
    for level, size in enumerate(LEVELS, start=1):
        ids = [f"{BOUNDARY}-L{level}-{i}" for i in range(size)]
        for i, entry_id in enumerate(ids):
            parents = [{"id": above[i * len(above) // size], "essential": rng.random() < 0.85}]
            other = rng.choice(above)
            if rng.random() < 0.2 and other != parents[0]["id"]:
                parents.append({"id": other, "essential": False})
            rows.append({"id": entry_id, "level": level, "parents": parents})
        above = ids
    return rows


def _ensure_graph(engine: Any) -> str:
    engine.boundary(BOUNDARY)
    count = engine.executor.read("bench/invalidation_count", boundary_id=BOUNDARY)[0]["entries"]
    rows = _rows()
    if count == 0:
        for i in range(0, len(rows), BATCH):
            engine.executor.write(
                "bench/invalidation_generate", rows=rows[i : i + BATCH], boundary_id=BOUNDARY
            )
    elif count != len(rows):
        raise SystemExit(f"{BOUNDARY} holds {count} entries, not {len(rows)}: use a new name")
    return str(rows[0]["id"])


def _interleaved(ours: Any, bare: Any) -> tuple[list[float], list[float]]:
    """Both timed run by run, alternating, so drift on the server hits both alike."""
    samples: tuple[list[float], list[float]] = ([], [])
    for i in range(WARMUP + RUNS):
        for fn, out in ((ours, samples[0]), (bare, samples[1])):
            started = time.perf_counter()
            fn()
            if i >= WARMUP:
                out.append(time.perf_counter() - started)
    return samples


def main() -> None:
    engine, counts = open_engine("invalidation")  # ensures the schema; counts on stderr
    with engine:
        root = _ensure_graph(engine)
        executor = engine.executor

        def ours() -> Any:
            return walk(executor, BOUNDARY, {root: "live"}, max_depth=64, max_nodes=20_000)

        def bare() -> list[Any]:
            rows = executor.read(
                "bench/invalidation_bare_traversal", boundary_id=BOUNDARY, root_id=root
            )
            return list(rows[0]["ids"])

        (found, baseline), names = statements_during(engine, lambda: (ours(), bare()))
        check_plans(engine, names)  # both compared paths seek by index, or the run stops
        assert found.reached == DESCENDANTS, found.reached
        assert set(baseline) == {*found.essential, *found.supporting}
        assert len(baseline) == DESCENDANTS
        assert not found.cut and found.depth == len(LEVELS)
        ours_s, bare_s = _interleaved(ours, bare)

    ratio = median(ours_s) / median(bare_s)
    count_figures(counts)
    figure("invalidation_walk_descendants", found.reached, "entries")
    figure("invalidation_walk_pages", found.pages, "statements")
    figure("invalidation_walk_at_risk", len(found.at_risk), "entries")
    figure("invalidation_walk_flagged", len(found.flagged), "entries")
    figure("invalidation_walk_median_ms", median(ours_s) * 1000, "ms")
    figure("invalidation_walk_p95_ms", percentile(ours_s, 95) * 1000, "ms")
    figure("bare_varlength_traversal_median_ms", median(bare_s) * 1000, "ms")
    figure(
        "invalidation_walk_over_bare_traversal",
        ratio,
        "ratio",
        f"<= {TARGET_RATIO}",
        ratio <= TARGET_RATIO,
    )


if __name__ == "__main__":
    main()
