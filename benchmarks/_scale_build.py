"""How ``benchmarks/scale.py`` builds its database: through the gate's batched path, fast.

**What runs.** Every chain boundary commits its sets through ``Boundary.commit_many`` in
batches of ``Config.batch`` (500) sets, one locked gate transaction each; then its pending
entries get their synthetic embeddings. The live boundary commits its live sets and then its
history the same way. ProposalNodes are created server-side in chunks of 10,000 (each a Thought
with its text and two edges: 50,000 overran the default 1 GB heap's transaction memory).

**Why it is fast** (see docs/benchmarks.md):

- *No czar during the run.* The benchmark's handles run without the czar cadence (the gate
  alone, as ``benchmarks/commit.py`` measures it): with it, every 500-set batch ended in a czar
  run whose reachability read grows with the boundary's live state, some seconds a batch at
  10,000 sets a boundary. The czar's plan is measured on its own (``measure_residency``).
- *Work in parallel.* ``Config.workers`` threads build different boundaries at once (each
  boundary's gate transactions stay one at a time, under its lock): the server runs one
  transaction per core, and the client's share (deciding, packing) overlaps the server's.
- *Embeddings without the driver's debug formatting.* The driver formats every parameter for
  its debug log whether or not that log is on: the floats of 2,000 vectors cost ~0.4 s of the
  client's CPU a batch. The vectors go as one 2-D array (``bench/scale_write_embeddings``),
  which formats in a line; the encoder is vectorised (``SyntheticEncoder``).
- *Bounded memory.* Proposals are generated one batch at a time (``chain_proposals`` and
  friends take a range) and embeddings one page at a time, never a boundary's whole chain.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from benchmarks._common import check_plans
from benchmarks._scale import (
    SyntheticEncoder,
    chain_proposals,
    history_proposals,
    live_proposals,
)
from benchmarks._scale_settle import IDLE_WINDOW_S
from kg_context.db.text_index import boundary_token
from kg_context.engine import BoundaryHandle, Engine
from kg_context.record.vector_index import boundary_vector_label, ensure_boundary_index

__all__ = ["BASE_TIME", "QUICK", "Config", "Run", "build"]

BASE_TIME = datetime(2024, 1, 1, tzinfo=UTC)
PROPOSAL_NODE_CHUNK = 10_000
EMBED_PAGE = 5_000


@dataclass(frozen=True, slots=True)
class Config:
    sets: int = 1_000_000
    boundaries: int = 100
    live: int = 50_000
    history: int = 500_000
    proposal_nodes: int = 10_000_000
    specialists: int = 20
    singles: int = 500  # single commits a size: p99 is their 5th slowest, not the 2nd
    queries: int = 30
    reads: int = 1_000
    runs: int = 7
    steps: tuple[float, ...] = (0.01, 0.1, 1.0)
    batch: int = 500
    warmup: int = 5
    workers: int = 2
    settle_timeout_s: float = 300.0  # the most a settle step waits (see _scale_settle.py)


QUICK = Config(
    sets=500,
    boundaries=5,
    live=250,
    history=500,
    proposal_nodes=5_000,
    specialists=5,
    singles=6,
    queries=4,
    reads=30,
    runs=2,
    warmup=2,
    # The test suite's budget: the two windows an idle server needs, no more; a busy server (the
    # suite's other workers keep it busy) is said, not waited for (15 s cost 45 s a run there).
    settle_timeout_s=2 * IDLE_WINDOW_S,
)


@dataclass(slots=True)
class Run:
    """The run's boundaries and how far each has been built."""

    engine: Engine
    config: Config
    run_id: str
    encoder: SyntheticEncoder = field(default_factory=SyntheticEncoder)
    built: dict[str, int] = field(default_factory=dict)  # chain boundary -> sets committed
    bare_sets: int = 0
    live_sets: int = 0
    history_sets: int = 0
    proposal_nodes: int = 0
    checked: set[str] = field(default_factory=set)
    plans: dict[str, list[str]] = field(default_factory=dict)  # each statement's, as last checked

    @property
    def chains(self) -> list[str]:
        return [f"scale-{self.run_id}-b{i:03d}" for i in range(self.config.boundaries)]

    @property
    def bare(self) -> str:
        return f"scale-{self.run_id}-bare"

    @property
    def live(self) -> str:
        return f"scale-{self.run_id}-live"

    def handle(self, boundary_id: str) -> BoundaryHandle:
        """The boundary's handle, without the czar cadence (the gate alone; see above)."""
        return self.engine.boundary(boundary_id, czar_every_commits=0)

    def check(self, names: set[str]) -> None:
        """EXPLAIN the statements (stops the run on a scan), and say on stderr each one whose
        plan differs from the one it had at the last size checked: the server plans a statement
        again once the store's statistics move enough, and a measurement that moves between two
        sizes may be a plan that changed."""
        plans = check_plans(self.engine, names)
        for name, ops in sorted(plans.items()):
            before = self.plans.get(name)
            if before is not None and before != ops:
                print(f"# plan changed: {name}: {' > '.join(ops)} (was {' > '.join(before)})",
                      file=sys.stderr)  # fmt: skip
        self.plans.update(plans)
        self.checked |= names


class _Clock:
    """Thread-seconds per component (the components overlap: their sum exceeds the wall)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._lock = threading.Lock()

    def timed(self, component: str, fn: Callable[[], object]) -> None:
        started = time.perf_counter()
        fn()
        with self._lock:
            self.seconds[component] = (
                self.seconds.get(component, 0.0) + time.perf_counter() - started
            )


def _commit_range(
    boundary: BoundaryHandle,
    make: Callable[[int, int], list[dict[str, Any]]],
    start: int,
    end: int,
    batch: int,
) -> None:
    """Commit sets ``start``..``end - 1``, generating one batch of proposals at a time."""
    for first in range(start, end, batch):
        decided = boundary.commit_many(make(first, min(end, first + batch)))
        refused = [d for d in decided if d.outcome != "commit"]
        if refused:
            raise SystemExit(f"the gate refused a benchmark set: {refused[0]}")


def embed(run: Run, boundary_id: str) -> int:
    """Embed the boundary's pending entries, a page at a time (the gate marks every new entry
    pending; this is ``record.search.embed_pending`` with the vectors sent as one array)."""
    executor, encoder = run.engine.executor, run.encoder
    up_to_seq = int(run.handle(boundary_id).state().seq or 0)
    total = 0
    while True:
        rows = executor.read(
            "record/pending_embeddings",
            boundary_id=boundary_id,
            batch=EMBED_PAGE,
            up_to_seq=up_to_seq,
        )
        if not rows:
            return total
        vectors = encoder.encode([f"{r['key']}: {r['body']}" for r in rows])
        executor.write(
            "bench/scale_write_embeddings",
            boundary_id=boundary_id,
            ids=[r["id"] for r in rows],
            vectors=vectors,
            model=encoder.settings.model,
            label=boundary_vector_label(boundary_id),
        )
        total += len(rows)
        if len(rows) < EMBED_PAGE:
            return total


def _jobs(run: Run, fraction: float, clock: _Clock) -> Iterator[Callable[[], None]]:
    """The build's independent jobs: the live boundary (live sets, then history: one boundary,
    the longest serial job, so it starts first), one per chain boundary (its sets, then its
    embeddings), and the ProposalNodes in chunks."""
    cfg = run.config
    live_target = cfg.live // 5
    history_target = max(2, math.ceil(cfg.history * fraction / 5) + 1)

    def live_and_history() -> None:
        boundary = run.handle(run.live)
        live = lambda s, e: live_proposals(run.live, s, e)  # noqa: E731
        history = lambda s, e: history_proposals(run.live, s, e)  # noqa: E731
        clock.timed(
            "live_and_history",
            lambda: _commit_range(boundary, live, run.live_sets, live_target, cfg.batch),
        )
        run.live_sets = max(run.live_sets, live_target)
        clock.timed(
            "live_and_history",
            lambda: _commit_range(boundary, history, run.history_sets, history_target, cfg.batch),
        )
        run.history_sets = max(run.history_sets, history_target)

    if run.live_sets < live_target or run.history_sets < history_target:
        yield live_and_history
    per_boundary = round(cfg.sets * fraction / cfg.boundaries)
    for index, b in enumerate(run.chains):
        have = run.built.get(b, 0)
        if per_boundary <= have:
            continue

        def chain(b: str = b, index: int = index, have: int = have) -> None:
            boundary = run.handle(b)
            make = lambda s, e: chain_proposals(b, index, s, e)  # noqa: E731
            clock.timed(
                "chains", lambda: _commit_range(boundary, make, have, per_boundary, cfg.batch)
            )
            clock.timed("embeddings", lambda: embed(run, b))
            run.built[b] = per_boundary

        yield chain
    target = round(cfg.proposal_nodes * fraction)
    for start in range(run.proposal_nodes, target, PROPOSAL_NODE_CHUNK):

        def chunk(start: int = start) -> None:
            clock.timed(
                "proposal_nodes",
                lambda: run.engine.executor.write(
                    "bench/scale_proposal_nodes",
                    start=start,
                    end=min(target, start + PROPOSAL_NODE_CHUNK),
                    prefix=f"scale-{run.run_id}-",
                    boundaries=run.chains,
                    tokens=[boundary_token(b) for b in run.chains],
                    specialists=cfg.specialists,
                    base=BASE_TIME,
                ),
            )

        yield chunk
    run.proposal_nodes = max(run.proposal_nodes, target)


def _boundary_indexes(run: Run) -> None:
    """What a database in steady state has: every boundary past the exact bound with its own
    vector index, online (the first search would create it otherwise, and search through the
    shared index while it fills)."""
    executor, settings = run.engine.executor, run.engine.settings
    cap = settings.search.exact_max_entries + 1
    for b in run.chains:
        sizes = executor.read("record/search_vector_sizes", boundary_id=b, cap=cap)[0]
        if settings.search.boundary_indexes and int(sizes["embedded"]) >= cap:
            ensure_boundary_index(executor, b, settings.embedding.dimensions)
    executor.write("admin/await_indexes", timeout_s=3600)


def build(run: Run, fraction: float) -> dict[str, float]:
    """Grow the database to ``fraction`` of the configured size, ``workers`` jobs at a time;
    the wall seconds (``wall``) and the thread-seconds of each component."""
    cfg = run.config
    for b in [*run.chains, run.live]:  # create the boundaries first, one at a time
        run.handle(b)
    before = sum(run.built.values()) + run.live_sets + run.history_sets
    clock = _Clock()
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=cfg.workers, thread_name_prefix="scale-build") as pool:
        futures: list[Future[None]] = [pool.submit(job) for job in _jobs(run, fraction, clock)]
        try:
            for future in futures:
                future.result()  # a job's failure stops the run here, with its own error
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    clock.timed("boundary_indexes", lambda: _boundary_indexes(run))
    wall = time.perf_counter() - started
    sets = sum(run.built.values()) + run.live_sets + run.history_sets - before
    print(
        f"# built to {fraction:g}: {sets:,} sets and {run.proposal_nodes:,} ProposalNodes in all "
        f"in {wall:,.0f} s ({sets / wall if wall else 0:,.1f} sets/s with {cfg.workers} workers; "
        + ", ".join(f"{k} {v:,.0f} s" for k, v in sorted(clock.seconds.items()))
        + ")",
        file=sys.stderr,
    )
    return {"wall": wall, **clock.seconds}
