"""Benchmark helpers: timing, progress, honest baselines, and the one-JSON-line-per-figure output.

Benchmarks connect through ``open_engine``: ``Engine.connect()`` (the resolved database, settings
read once), which ensures the schema through ``kg_context.db.schema.ensure_schema``, the same
function ``make bench`` runs first (``kg-context schema apply``), so no benchmark runs on an
unindexed store, even a fresh one; then it prints the store's node and relationship counts (on
stderr, and as figures at the end). ``check_plans`` EXPLAINs every statement a benchmark compares
(the statements the executor really ran, by name) and stops the run, loudly, when one scans
instead of seeking by index. Progress bars go to stderr, only on a terminal; stdout carries the
JSON lines alone."""

from __future__ import annotations

import dataclasses
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import track

from kg_context.engine import Engine
from kg_context.errors import QueryError
from kg_context.gate.io.collector import startup_frozen
from kg_context.settings import EngineSettings

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


@contextmanager
def harness_frozen() -> Iterator[list[float]]:
    """The objects alive when the block starts (the harness's generated sets and rows, the
    modules of every import) out of the cyclic collector's reach for the block (``gc.freeze``),
    and the seconds each full collection took in it, yielded. A full collection walks every
    tracked object: over a benchmark's own inputs ~30-40 ms, in whichever timed call allocates
    when it is due (the bare transaction as often as ``commit()``), which no part of the path
    timed causes. The path's own objects are collected as before."""
    startup_frozen()  # the serving processes' freeze, taken here for the timed calls
    pauses: list[float] = []
    began: list[float] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if info["generation"] < 2:
            return
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            pauses.append(time.perf_counter() - began.pop())

    gc.callbacks.append(watch)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(watch)
        gc.unfreeze()


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


def server_cpu_s(engine: Engine) -> float | None:
    """The server process's CPU time so far (JMX), or None when the server does not say."""
    try:
        rows = engine.executor.read("bench/server_cpu")
    except QueryError:
        return None
    value = rows[0]["cpu"] if rows else None
    return float(value["value"]) / 1e9 if isinstance(value, dict) else None


_DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
NEO4J_REPLAN_INTERVAL_S = 10.0  # Neo4j's own dbms.cypher.min_replan_interval


def replan_interval_s(engine: Engine) -> float:
    """How long the server keeps a Cypher plan before it checks, on the statement's next run,
    whether the store's statistics moved enough to plan it again (``dbms.cypher.min_replan_
    interval``); Neo4j's own default, said on stderr, when the server does not show it."""
    try:
        rows = engine.executor.read("bench/server_settings")
    except QueryError as exc:
        rows = []
        print(f"# the server's settings are not readable here ({exc})", file=sys.stderr)
    value = next((r["value"] for r in rows if r["name"] == "dbms.cypher.min_replan_interval"), None)
    if value is None:
        print(f"# replan interval: taken as {NEO4J_REPLAN_INTERVAL_S:g}s", file=sys.stderr)
        return NEO4J_REPLAN_INTERVAL_S
    text = str(value).strip()
    number = text.rstrip("abcdefghijklmnopqrstuvwxyz")
    return float(number) * _DURATION_UNITS[text[len(number) :] or "ms"]


def store_counts(engine: Engine) -> tuple[int, int]:
    """The store's node and relationship counts (the count store: one cheap read)."""
    row = engine.executor.read("bench/store_counts")[0]
    return int(row["nodes"]), int(row["relationships"])


def gate_settings(settings: EngineSettings | None = None) -> EngineSettings:
    """``settings`` (default: read from the environment) with embedding on commit off. The
    benchmarks compare the gate and the record with bare writes that embed nothing, so their
    engines leave the model out of the measured path (what embedding costs is the model's
    figure, not the gate's)."""
    base = settings if settings is not None else EngineSettings()
    embedding = base.embedding.model_copy(update={"on_commit": False})
    return dataclasses.replace(base, embedding=embedding)


def open_engine(
    name: str, *, settings: EngineSettings | None = None, **connect: Any
) -> tuple[Engine, tuple[int, int]]:
    """Connect (ensuring the schema) with ``gate_settings`` and say what the store holds at
    start, on stderr. The caller prints the counts as figures with the rest
    (``count_figures``)."""
    engine = Engine.connect(settings=gate_settings(settings), **connect)
    counts = store_counts(engine)
    print(
        f"# {name}: {engine.target.describe()} holds {counts[0]:,} nodes and {counts[1]:,} "
        "relationships at start",
        file=sys.stderr,
    )
    return engine, counts


def count_figures(counts: tuple[int, int]) -> None:
    figure("store_nodes_at_start", counts[0], "nodes")
    figure("store_relationships_at_start", counts[1], "relationships")


# Operators that read a whole label, relationship type, index or store: a statement a benchmark
# compares must not need one (with the schema in place, every lookup is a seek).
SCANS = frozenset(
    {
        "AllNodesScan",
        "NodeByLabelScan",
        "NodeIndexScan",
        "NodeIndexContainsScan",
        "NodeIndexEndsWithScan",
        "DirectedRelationshipTypeScan",
        "UndirectedRelationshipTypeScan",
        "DirectedAllRelationshipsScan",
        "UndirectedAllRelationshipsScan",
        "DirectedRelationshipIndexScan",
        "UndirectedRelationshipIndexScan",
    }
)


def operators(plan: dict[str, Any]) -> list[str]:
    """Every operator of a plan tree, depth first (``NodeIndexSeek``, ``ProcedureCall``, ...)."""
    found = [str(plan.get("operatorType", "")).split("@")[0]]
    for child in plan.get("children", []):
        found += operators(child)
    return found


class ScanningPlan(SystemExit):
    """A compared statement planned a scan: the run stops, loudly (the figures would mean
    nothing on an unindexed store)."""


def check_plans(engine: Engine, names: Iterable[str]) -> dict[str, list[str]]:
    """EXPLAIN every statement named; return each one's operators. Raise ``ScanningPlan``
    naming every statement whose plan scans (``SCANS``) instead of seeking by index."""
    plans = {name: operators(engine.executor.explain(name)) for name in sorted(set(names))}
    bad = {name: ops for name, ops in plans.items() if SCANS & set(ops)}
    if bad:
        lines = [f"  {name}: {' > '.join(ops)}" for name, ops in bad.items()]
        raise ScanningPlan(
            "these statements plan a scan instead of an index seek (is the schema applied?):\n"
            + "\n".join(lines)
        )
    print(f"# plans checked: {len(plans)} statements seek by index, none scans", file=sys.stderr)
    return plans


def statements_during(engine: Engine, work: Callable[[], T]) -> tuple[T, set[str]]:
    """Run ``work`` and return its result and the names of the statements it sent."""
    before = engine.executor.statement_counts()
    result = work()
    after = engine.executor.statement_counts()
    return result, {name for name, n in after.items() if n > before.get(name, 0)}
