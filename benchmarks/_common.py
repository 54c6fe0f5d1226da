"""Benchmark helpers: timing, and the one-JSON-line-per-figure output. Benchmarks connect the
way everything else does: ``Engine.connect()`` (the resolved database, settings read once), which
ensures the schema through ``kg_context.db.schema.ensure_schema``, the same function
``make bench`` runs first (``kg-context schema apply``): no benchmark runs on an unindexed store."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any


def timings(fn: Callable[[], Any], runs: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return samples


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def figure(
    metric: str, value: float, unit: str, target: str | None = None, met: bool | None = None
) -> None:
    print(
        json.dumps(
            {"metric": metric, "value": round(value, 4), "unit": unit, "target": target, "met": met}
        )
    )
