"""Concurrent commits: one boundary queues, different boundaries never wait.

Separate processes (each its own engine and executor) commit single-entry explicit sets through
``Boundary.commit`` against the resolved database. Each writer first commits one warm-up set (the
tokenizer, query plans), then waits at a start barrier, so the timed windows overlap exactly.

1. One boundary: 3 writers x 200 sets, with the czar compacting it meanwhile as the product does
   by default: the cadence czar of each writer's engine (``czar_every_commits``), no other czar
   beside it (every second set holds a fact nothing requires, so the czar retires them). Every
   executor counts its transaction attempts and the transient errors that caused retries, by
   Neo4j code: the figure is the sum of DeadlockDetected retries (target 0). The ledger must be
   one contiguous seq over every ratified set, the writers' sets and the czar's compaction sets
   alike; compaction sets the gate turned away (two czars that planned the same work) are
   counted apart.
2. Isolation: 1 writer alone on its boundary, then 8 writers on 8 boundaries at once, 200 sets
   each, each boundary's cadence czar compacting it meanwhile. Commits of different boundaries
   that waited on each other would show as transactions blocked on a lock: a sampler (``SHOW
   TRANSACTIONS``, every 20 ms) counts samples with one of these boundaries' transactions
   blocked, by the lock it waits for: another boundary's, or anything shared (target 0), or its
   own boundary's node (a commit queued behind its own boundary's czar run, or the czar behind
   its writer: printed apart; run 1 shows what queueing on one boundary looks like).
   Throughput is bounded by the cores: the CPU one set costs alone (the writer's own CPU plus the
   server's, read from its JMX ``ProcessCpuTime``) and the CPU the 8 writers and the server got
   (cores, measured) explain a per-process rate of ``cores got / CPU per set / 8``. The figure
   is the measured per-process rate over that (target >= 0.8: nothing beyond the cores is lost).
   Without JMX (a remote server that hides it) only the rates and the blocked samples print.

    python -m benchmarks.concurrency                 # both runs, JSON figures at the end
    python -m benchmarks.concurrency --sets 50       # smaller (sets per writer)
    python -m benchmarks.concurrency --quick         # 10 sets per writer (the test suite)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    gate_settings,
    open_engine,
    server_cpu_s,
    statements_during,
)
from kg_context.db.executor import DEADLOCK
from kg_context.engine import Engine
from kg_context.vocabulary import SetKind, SetStatus

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_S = 0.02
QUICK_SETS = 10


def _set(boundary_id: str, prefix: str, i: int) -> dict[str, Any]:
    pid = f"{prefix}-{i}"
    body: dict[str, Any] = {"class": "decision", "key": pid, "body": f"n{i}"}
    if i % 2:  # a fact nothing requires: the czar retires it
        body = {**body, "class": "fact", "attributes": {"source": "bench"}}
    return {
        "id": pid,
        "boundary_id": boundary_id,
        "writer_id": f"writer-{prefix}",
        "writer_kind": "agent",
        "set_id": f"{pid}-set",
        "entries": [body],
    }


def _writer(boundary_id: str, prefix: str, count: int, barrier: Path) -> dict[str, Any]:
    with Engine.connect(settings=gate_settings()) as engine:
        boundary = engine.boundary(boundary_id)
        boundary.commit(_set(boundary_id, f"{prefix}-warm", 0))  # tokenizer, plans: not timed
        (barrier / f"ready-{prefix}").touch()
        while not (barrier / "go").exists():
            time.sleep(0.005)
        cpu, started = time.process_time(), time.perf_counter()
        outcomes: Counter[str] = Counter()
        for i in range(count):
            outcomes[boundary.commit(_set(boundary_id, prefix, i)).outcome] += 1
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        counts = engine.executor.retry_counts()
    return {
        "sets": count,
        "elapsed": elapsed,
        "cpu": cpu,
        "outcomes": dict(outcomes),
        "units": counts.units,
        "attempts": counts.attempts,
        "retries": dict(counts.retries),
    }


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.concurrency", "--worker", *args],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _result(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = process.communicate(timeout=3600)
    if process.returncode != 0:
        raise SystemExit(f"a worker failed: {err[-2000:]}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


class _Sampler:
    """Counts samples in which a transaction on one of the given boundaries was blocked, and
    tells apart whose work it waited on by the lock it waited for: the node of its own
    boundary (``own``: a commit queued behind another transaction of the same boundary, its
    czar's among them) or anything else (``cross``: another boundary's lock, a shared node, an
    index entry, or a transaction that names no boundary waiting on one of these boundaries).
    ``own_writer``: the samples in which a writer's commit (not the czar's) waited on its own
    boundary's node, i.e. on its boundary's czar in run 2."""

    def __init__(self, engine: Engine, boundary_ids: set[str]) -> None:
        self._engine, self._ids = engine, boundary_ids
        rows = engine.executor.read("bench/boundary_node_ids", boundary_ids=sorted(boundary_ids))
        self._nodes = {r["node_id"]: r["boundary_id"] for r in rows}
        self.samples = self.blocked = self.own = self.own_writer = self.cross = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _whose(self, row: dict[str, Any]) -> str | None:
        """``own`` (``own_writer`` for a writer's commit), ``cross``, or ``None`` (a transaction
        of none of these boundaries waiting on none of their nodes: another client of the
        server)."""
        ids = row["resource_ids"] or []
        on = {self._nodes.get(i) for i in ids} if row["resource_type"] == "NODE" else {None}
        if row["boundary_id"] not in self._ids and not on & self._ids:
            return None
        if on != {row["boundary_id"]}:
            return "cross"
        return "own" if row["czar"] else "own_writer"

    def _run(self) -> None:
        while not self._stop.is_set():
            rows = self._engine.executor.read("bench/blocked_transactions")
            whose = {self._whose(r) for r in rows} - {None}
            self.samples += 1
            self.blocked += bool(whose)
            self.own += bool(whose & {"own", "own_writer"})
            self.own_writer += "own_writer" in whose
            self.cross += "cross" in whose
            self._stop.wait(SAMPLE_S)

    def __enter__(self) -> _Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _timed(
    engine: Engine, writers: dict[str, str], sets: int, watch: set[str]
) -> tuple[list[dict[str, Any]], float, float | None, _Sampler]:
    """Run writers (prefix -> boundary) through the start barrier: their results, the wall
    time from go to the last one done, the server's CPU seconds meanwhile, and the sampler."""
    with tempfile.TemporaryDirectory(prefix="kg-bench-barrier-") as tmp:
        barrier = Path(tmp)
        procs = [_spawn("writer", b, p, str(sets), tmp) for p, b in writers.items()]
        while len(list(barrier.glob("ready-*"))) < len(procs):
            if any(p.poll() is not None for p in procs):
                raise SystemExit(f"a writer ended early: {_result(next(p for p in procs))}")
            time.sleep(0.01)
        with _Sampler(engine, watch) as sampler:
            server_before, started = server_cpu_s(engine), time.perf_counter()
            (barrier / "go").touch()
            results = [_result(p) for p in procs]
            wall, server_after = time.perf_counter() - started, server_cpu_s(engine)
    server = server_after - server_before if server_before and server_after else None
    for r in results:
        if r["outcomes"] != {"commit": sets}:
            raise SystemExit(f"not every set committed: {r['outcomes']}")
    return results, wall, server, sampler


@dataclass(frozen=True, slots=True)
class OneBoundary:
    """Run 1's outcome: retries by Neo4j code, the ledger's ratified compaction sets, the
    compaction sets turned away, and the sampler."""

    retries: Counter[str]
    czar_sets: int
    czar_turned_away: int
    sampler: _Sampler


def _ledger(engine: Engine, boundary_id: str, writer_sets: int) -> tuple[int, int]:
    """Check the boundary's ledger: every ratified set (the writers' ``writer_sets`` and the
    czar's compaction sets) holds one seq of 1..N with no gap; return the ratified compaction
    sets and the compaction sets not ratified."""
    rows = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    ratified = [r for r in rows if r["status"] == SetStatus.RATIFIED]
    seqs = sorted(r["seq"] for r in ratified)
    kinds = Counter(r["kind"] for r in ratified)
    if seqs != list(range(1, len(seqs) + 1)):
        raise SystemExit(f"the ratified ledger of {boundary_id} is not one contiguous seq 1..N")
    if kinds[SetKind.STATE] != writer_sets or set(kinds) - {SetKind.STATE, SetKind.COMPACTION}:
        raise SystemExit(f"the ledger of {boundary_id} holds {dict(kinds)}: {writer_sets} "
                         "writer sets and compaction sets expected")  # fmt: skip
    turned_away = sum(
        1 for r in rows if r["kind"] == SetKind.COMPACTION and r["status"] != SetStatus.RATIFIED
    )
    return kinds[SetKind.COMPACTION], turned_away


def one_boundary(engine: Engine, run: str, sets: int) -> OneBoundary:
    boundary_id = f"bench-conc-one-{run}"
    engine.boundary(boundary_id)
    writers = {f"{run}-{n}": boundary_id for n in "abc"}
    results, _, _, sampler = _timed(engine, writers, sets, {boundary_id})
    retries: Counter[str] = Counter()
    for r in results:
        retries.update(r["retries"])
    czar_sets, turned_away = _ledger(engine, boundary_id, 3 * (sets + 1))  # + warm-up sets
    return OneBoundary(retries, czar_sets, turned_away, sampler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=int, default=200, help="sets per writer process")
    parser.add_argument("--quick", action="store_true", help="10 sets per writer (the test suite)")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _, boundary_id, prefix, count, barrier = args.worker
        result = _writer(boundary_id, prefix, int(count), Path(barrier))
        print(json.dumps(result), flush=True)
        return

    cores = os.cpu_count() or 1
    run, sets = uuid.uuid4().hex[:8], QUICK_SETS if args.quick else args.sets
    engine, counts = open_engine("concurrency")  # ensures the schema; counts on stderr
    with engine:
        # What every writer and the czar run (commit() transactions, the czar's plan and its
        # compaction set), sampled here and checked before anything is timed.
        sample = engine.boundary(f"bench-conc-plans-{run}")

        def one_of_each() -> None:
            for i in range(2):
                sample.commit(_set(sample.id, f"{run}-plans", i))
            sample.run_czar()

        _, names = statements_during(engine, one_of_each)
        check_plans(engine, names)
        one = one_boundary(engine, run, sets)
        retries, queued = one.retries, one.sampler
        alone_id = f"bench-conc-alone-{run}"
        engine.boundary(alone_id)
        (alone,), alone_wall, alone_server, _ = _timed(
            engine, {f"{run}-alone": alone_id}, sets, {alone_id}
        )
        eight_ids = {f"{run}-{n}": f"bench-conc-eight-{run}-{n}" for n in range(8)}
        for b in eight_ids.values():
            engine.boundary(b)
        eight, eight_wall, eight_server, sampler = _timed(
            engine, eight_ids, sets, set(eight_ids.values())
        )

    count_figures(counts)
    figure("concurrency_one_boundary_deadlock_retries", retries[DEADLOCK], "count", "== 0",
           retries[DEADLOCK] == 0)  # fmt: skip
    figure("concurrency_one_boundary_transient_retries", sum(retries.values()), "count")
    figure("concurrency_one_boundary_czar_sets", one.czar_sets, "count")
    figure("concurrency_one_boundary_czar_sets_turned_away", one.czar_turned_away, "count")
    figure("concurrency_one_boundary_blocked_samples", queued.blocked, "count",
           f"> 0 of {queued.samples} (one boundary queues)", queued.blocked > 0)  # fmt: skip
    alone_rate = sets / alone["elapsed"]
    per_process = sum(sets / r["elapsed"] for r in eight) / len(eight)
    figure("concurrency_sets_per_s_alone", alone_rate, "sets/s")
    figure("concurrency_sets_per_s_per_process_8_boundaries", per_process, "sets/s")
    figure("concurrency_sets_per_s_aggregate_8_boundaries", 8 * sets / eight_wall, "sets/s")
    figure("concurrency_per_process_8_over_alone", per_process / alone_rate, "ratio")
    # A commit of one boundary waiting on another boundary's work (the figure that must be 0),
    # and, apart, commits queued behind their own boundary's transactions (its czar's runs: the
    # cadence czar of each writer's engine compacts its boundary meanwhile).
    figure("concurrency_8_boundaries_cross_boundary_blocked_samples", sampler.cross, "count",
           f"== 0 of {sampler.samples}", sampler.cross == 0)  # fmt: skip
    figure("concurrency_8_boundaries_own_boundary_blocked_samples", sampler.own, "count",
           f"of {sampler.samples}")  # fmt: skip
    figure("concurrency_8_boundaries_writer_on_own_czar_blocked_samples", sampler.own_writer,
           "count", f"of {sampler.samples}")  # fmt: skip
    if alone_server is None or eight_server is None:
        return
    cpu_per_set = (alone["cpu"] + alone_server) / sets
    cores_got = (sum(r["cpu"] for r in eight) + eight_server) / eight_wall
    explained = cores_got / cpu_per_set / 8
    figure("concurrency_cpu_ms_per_set_alone", cpu_per_set * 1000, "ms")
    figure("concurrency_cores_used_alone", (alone["cpu"] + alone_server) / alone_wall, "cores",
           f"of {cores}")  # fmt: skip
    figure("concurrency_cores_used_8_boundaries", cores_got, "cores", f"of {cores}")
    figure("concurrency_sets_per_s_per_process_explained_by_cores", explained, "sets/s")
    ratio = per_process / explained
    figure("concurrency_per_process_over_cores_explained", ratio, "ratio", ">= 0.8", ratio >= 0.8)


if __name__ == "__main__":
    main()
