"""Benchmark helpers: timing, progress, and the one-JSON-line-per-figure output. Benchmarks
connect the way everything else does: ``Engine.connect()`` (the resolved database, settings read
once), which ensures the schema through ``kg_context.db.schema.ensure_schema``, the same function
``make bench`` runs first (``kg-context schema apply``): no benchmark runs on an unindexed store.
Progress bars go to stderr, only on a terminal; stdout carries the JSON lines alone."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import track

T = TypeVar("T")
_STDERR = Console(stderr=True)


def progress(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """``items``, with a progress bar on stderr while a person watches (a terminal)."""
    yield from track(
        items,
        description=description,
        total=total,
        console=_STDERR,
        transient=True,
        disable=not sys.stderr.isatty(),
    )


def timings(
    fn: Callable[[], Any], runs: int, warmup: int = 20, label: str = "timing"
) -> list[float]:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in progress(range(runs), label, total=runs):
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
