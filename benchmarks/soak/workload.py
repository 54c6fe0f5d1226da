"""The soak's workload: threads over one shared engine, sampled every interval."""

from __future__ import annotations

import os
import random
import threading
import time
import traceback
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import percentile
from kg_context.attention import WorkspaceAttention
from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import StateError


@dataclass(frozen=True)
class SoakConfig:
    duration_s: float
    interval_s: float
    warmup_s: float
    writers: int = 3
    store_dir: Path | None = None


@dataclass
class Sample:
    """One interval: when it ended (seconds from the start), what ran, what it cost."""

    t: float
    ops: dict[str, int]
    sets: int
    latency_ms: dict[str, dict[str, float]]
    rss_mb: float
    store_mb: float | None


@dataclass
class SoakResult:
    config: SoakConfig
    started_at: str
    samples: list[Sample]
    totals: dict[str, int]
    errors: dict[str, int]
    error_examples: list[str]
    latency: dict[str, tuple[float, float]]  # op -> (p50, p99) seconds, whole run
    sets_committed: int
    audit: dict[str, int]  # audit name -> rows
    boundaries: list[str]
    rss_warm_mb: float = 0.0
    rss_max_after_warm_mb: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def sets_per_second(self) -> float:
        return self.sets_committed / self.config.duration_s

    @property
    def rss_single_sample_growth(self) -> float:
        """The highest RSS after warm-up over the one sample taken as warm-up ended. It reads
        the working set's swing as growth whenever that sample falls in a trough (the soak of
        2026-11-30: x1.196 from a 1,016 MB trough, with the curve flat around 1,135 MB)."""
        return self.rss_max_after_warm_mb / self.rss_warm_mb if self.rss_warm_mb else 0.0

    def _after_warmup(self) -> list[Sample]:
        return [s for s in self.samples if s.t > self.config.warmup_s]

    @property
    def rss_first_peak_mb(self) -> float:
        """The highest RSS in the first fifth of the run after warm-up."""
        after = self._after_warmup()
        return max((s.rss_mb for s in after[: max(1, len(after) // 5)]), default=0.0)

    @property
    def rss_last_peak_mb(self) -> float:
        """The highest RSS in the last fifth of the run after warm-up."""
        after = self._after_warmup()
        return max((s.rss_mb for s in after[-max(1, len(after) // 5) :]), default=0.0)

    @property
    def rss_growth(self) -> float:
        """Growth after warm-up, peak to peak: the last fifth's highest RSS over the first
        fifth's. A leak raises the peaks; a working set that swings with the batches in flight
        does not (and neither does a warm-up sample that happens to fall in a trough)."""
        first = self.rss_first_peak_mb
        return self.rss_last_peak_mb / first if first else 0.0

    @property
    def rss_trend_mb_per_min(self) -> float:
        """The least-squares slope of RSS after warm-up, in MB per minute."""
        points = [(s.t / 60.0, s.rss_mb) for s in self._after_warmup()]
        if len(points) < 2:
            return 0.0
        mean_t = sum(t for t, _ in points) / len(points)
        mean_r = sum(r for _, r in points) / len(points)
        spread = sum((t - mean_t) ** 2 for t, _ in points)
        return sum((t - mean_t) * (r - mean_r) for t, r in points) / spread if spread else 0.0

    @property
    def rss_flat(self) -> bool:
        return self.rss_growth <= 1.10

    @property
    def errors_total(self) -> int:
        return sum(self.errors.values())

    @property
    def audit_rows(self) -> int:
        return sum(self.audit.values())

    @property
    def audit_clean(self) -> bool:
        return self.audit_rows == 0


def rss_mb() -> float:
    """This process's resident set, from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def store_mb(store_dir: Path | None) -> float | None:
    """The store's size on disk. The store is live: Lucene merges delete segment files while the
    walk lists them (a fresh-clone run failed on one), so a file gone by its turn counts 0."""
    if store_dir is None or not store_dir.exists():
        return None
    total = 0
    for folder, _, files in os.walk(store_dir):
        for name in files:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except FileNotFoundError:
                continue
    return total / 1_048_576


class Soak:
    """The threads and the sampler."""

    def __init__(self, engine: Engine, config: SoakConfig) -> None:
        self.engine = engine
        self.config = config
        run = uuid.uuid4().hex[:8]
        self.boundaries = [f"soak-{run}-{n}" for n in range(config.writers)]
        self.handles: list[BoundaryHandle] = [engine.boundary(b) for b in self.boundaries]
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._ops: Counter[str] = Counter()
        self._ops_total: Counter[str] = Counter()
        self._sets = 0
        self._sets_total = 0
        self._latency: defaultdict[str, list[float]] = defaultdict(list)
        self._all_latency: defaultdict[str, list[float]] = defaultdict(list)
        self._errors: Counter[str] = Counter()
        self._error_examples: list[str] = []

    # -- bookkeeping ------------------------------------------------------------------------
    def _timed(self, op: str, call: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            result = call()
        except StateError:
            result = None  # the record moved on under a racing thread (e.g. nothing to challenge)
            op = f"{op}_state"
        except Exception as err:  # noqa: BLE001 - counted and reported, never hidden
            with self._lock:
                self._errors[op] += 1
                if len(self._error_examples) < 20:
                    self._error_examples.append(f"{op}: {type(err).__name__}: {err}")
                    traceback.print_exc()
            return None
        took = time.perf_counter() - started
        with self._lock:
            self._ops[op] += 1
            self._ops_total[op] += 1
            self._latency[op].append(took)
            self._all_latency[op].append(took)
        return result

    def _count_sets(self, decisions: list[Any]) -> None:
        committed = sum(1 for d in decisions if getattr(d, "outcome", None) == "commit")
        with self._lock:
            self._sets += committed
            self._sets_total += committed

    def _loop(self, pause_s: float, step: Callable[[int], None]) -> Callable[[], None]:
        def run() -> None:
            i = 0
            while not self._stop.is_set():
                step(i)
                i += 1
                if pause_s:
                    self._stop.wait(pause_s)

        return run

    # -- the workload -------------------------------------------------------------------------
    def _writer(self, n: int) -> Callable[[int], None]:
        handle = self.handles[n]

        def step(i: int) -> None:
            decision_id = f"w{n}-{i}-d"
            entry: dict[str, Any] = {
                "id": decision_id,
                "class": "decision",
                "key": f"key-{i % 7}",
                "body": f"decision {i} of writer {n}: " + "lorem ipsum " * random.randint(1, 30),
            }
            if i >= 7 and i % 3 == 0:
                entry["supersedes"] = [{"entry_id": f"w{n}-{i - 7}-d", "reason": "newer"}]
            fact = {
                "id": f"w{n}-{i}-f",
                "class": "fact",
                "key": f"fact-{i}",
                "body": f"fact {i}",
                "derived_from": [{"entry_id": decision_id, "essential": i % 2 == 0}],
                "requires": [{"entry_id": decision_id, "policy": "soft", "lease_sets": 20}],
            }
            proposal = {
                "id": f"w{n}-{i}",
                "boundary_id": handle.id,
                "writer_id": f"writer-{n}",
                "writer_kind": "agent",
                "set_id": f"w{n}-{i}-set",
                "entries": [entry, fact],
            }
            decision = self._timed("commit", lambda: handle.commit(proposal))
            if decision is not None:
                self._count_sets([decision])

        return step

    def _czar(self, i: int) -> None:
        handle = self.handles[i % len(self.handles)]
        report = self._timed("czar", handle.run_czar)
        if report is not None:
            self._count_sets(list(report.decisions))

    def _invalidation(self, i: int) -> None:
        handle = self.handles[i % len(self.handles)]
        window = self._timed("window", handle.window)
        if window is None:
            return
        facts = [e.id for e in window.entries if e.entry_class == "fact" and e.status == "live"]
        if not facts:
            return
        target = random.choice(facts)
        radius = self._timed(
            "invalidation",
            lambda: handle.challenge(target, reason="soak", writer_id="operator"),
        )
        if radius is not None:
            self._count_sets([radius.decision])

    def _attention(self, i: int) -> None:
        attention = WorkspaceAttention(self.engine, boundary_id=self.handles[0].id)
        outputs = {
            "planner": {"text": f"Plan step {i}: index the lookups.", "confidence": 0.8},
            "critic": {"text": f"Critique {i}: watch the write path.", "confidence": 0.6},
            "researcher": f"Finding {i}: graph reads dominate. confidence: 0.7",
        }
        result = self._timed(
            "attention",
            lambda: attention.select_and_broadcast(
                outputs, "How do we speed up lookups?", task_id=f"task-{i % 5}"
            ),
        )
        if result is not None:
            self._count_sets(list(result.outcomes))

    def _reader(self, i: int) -> None:
        handle = self.handles[i % len(self.handles)]
        self._timed("stats", handle.stats)
        self._timed("history", lambda: handle.history_index(limit=50))
        self._timed("recall", lambda: handle.recall("decision lorem", k=5))
        window = self._timed("window", handle.window)
        if window is not None and window.entries:
            entry = random.choice(window.entries).id
            self._timed("why", lambda: handle.why(entry))

    # -- the run ------------------------------------------------------------------------------
    def run(self) -> SoakResult:
        config = self.config
        threads = [
            threading.Thread(target=self._loop(0.0, self._writer(n)), name=f"writer-{n}")
            for n in range(config.writers)
        ]
        threads += [
            threading.Thread(target=self._loop(2.0, self._czar), name="czar"),
            threading.Thread(target=self._loop(5.0, self._invalidation), name="invalidation"),
            threading.Thread(target=self._loop(3.0, self._attention), name="attention"),
            threading.Thread(target=self._loop(0.2, self._reader), name="reader"),
        ]
        started_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        started = time.monotonic()
        for thread in threads:
            thread.start()
        samples: list[Sample] = []
        warm_rss: float | None = None
        try:
            while (elapsed := time.monotonic() - started) < config.duration_s:
                self._stop.wait(min(config.interval_s, config.duration_s - elapsed))
                samples.append(self._sample(time.monotonic() - started))
                if warm_rss is None and samples[-1].t >= config.warmup_s:
                    warm_rss = samples[-1].rss_mb
        finally:
            self._stop.set()
            for thread in threads:
                thread.join(timeout=600)
        for thread in threads:  # still running after its join: a stuck operation, an error
            if thread.is_alive():
                self._errors[f"stuck:{thread.name}"] += 1
        after = [s.rss_mb for s in samples if s.t > config.warmup_s]
        return SoakResult(
            config=config,
            started_at=started_at,
            samples=samples,
            totals=dict(self._ops_total),
            errors=dict(self._errors),
            error_examples=list(self._error_examples),
            latency={
                op: (percentile(v, 50), percentile(v, 99))
                for op, v in self._all_latency.items()
                if v
            },
            sets_committed=self._sets_total,
            audit=self._audit(),
            boundaries=self.boundaries,
            rss_warm_mb=warm_rss or (samples[-1].rss_mb if samples else 0.0),
            rss_max_after_warm_mb=max(after) if after else 0.0,
        )

    def _sample(self, t: float) -> Sample:
        with self._lock:
            ops, sets = dict(self._ops), self._sets
            latency = {
                op: {
                    "p50": percentile(v, 50) * 1000,
                    "p99": percentile(v, 99) * 1000,
                    "n": float(len(v)),
                }
                for op, v in self._latency.items()
                if v
            }
            self._ops.clear()
            self._sets = 0
            self._latency.clear()
        return Sample(t, ops, sets, latency, rss_mb(), store_mb(self.config.store_dir))

    def _audit(self) -> dict[str, int]:
        rows: Counter[str] = Counter()
        for boundary_id in self.boundaries:
            for result in self.engine.invariants(boundary_id):
                rows[result.audit.name] += len(result.rows)
        return dict(rows)
