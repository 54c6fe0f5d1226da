"""Concurrent commits (issue 10, item 11): one boundary queues, different boundaries never wait.

Two runs, each of separate processes (every process its own engine and executor, committing
single-entry explicit sets through ``Boundary.commit``), against the resolved database:

1. one boundary: 3 writer processes x 200 sets, plus a czar process compacting the same boundary
   meanwhile (every second set holds a fact nothing requires, so the czar retires them). Every
   process's executor counts its transaction attempts and the transient errors that caused
   retries, by Neo4j code; the figure is the sum of DeadlockDetected retries (target 0), with
   the ledger checked for one contiguous seq;
2. isolation: 1 writer process alone on its boundary, then 8 writer processes on 8 boundaries at
   once, 200 sets each: sets/s per process. With C cores shared by client processes and the
   server, 8 processes can each get at most about C/8 of what one process alone gets when that
   one keeps a core busy; commits that waited on each other would fall below that. The figures:
   the per-process rate over the alone rate (target >= 0.8 x C/8), the aggregate rate over the
   alone rate (target >= 1: 8 boundaries never commit slower together than one does alone), and
   how often a sampler (``SHOW TRANSACTIONS``, every 20 ms) saw a transaction of these
   boundaries blocked on a lock (target 0; the one-boundary run shows what queueing looks like).

    python -m benchmarks.concurrency                 # both runs, JSON figures at the end
    python -m benchmarks.concurrency --sets 50       # smaller (sets per writer)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks._common import figure
from kg_context.db.executor import DEADLOCK
from kg_context.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_S = 0.02


def _writer(boundary_id: str, prefix: str, count: int) -> dict[str, Any]:
    with Engine.connect() as engine:
        team = engine.boundary(boundary_id)
        started = time.perf_counter()
        outcomes: Counter[str] = Counter()
        for i in range(count):
            pid = f"{prefix}-{i}"
            body: dict[str, Any] = {"class": "decision", "key": pid, "body": f"n{i}"}
            if i % 2:
                body = {**body, "class": "fact", "attributes": {"source": "bench"}}
            decision = team.commit(
                {
                    "id": pid,
                    "boundary_id": boundary_id,
                    "writer_id": f"writer-{prefix}",
                    "writer_kind": "agent",
                    "set_id": f"{pid}-set",
                    "entries": [body],
                }
            )
            outcomes[decision.outcome] += 1
        elapsed = time.perf_counter() - started
        counts = engine.executor.retry_counts()
    return {"elapsed": elapsed, "sets": count, "outcomes": dict(outcomes), **_counts(counts)}


def _czar(boundary_id: str, stop_file: str) -> dict[str, Any]:
    with Engine.connect() as engine:
        team = engine.boundary(boundary_id, create=False)
        runs = committed = 0
        while True:
            last = Path(stop_file).exists()
            report = team.run_czar()
            runs += 1
            committed += sum(1 for d in report.decisions if d.outcome == "commit")
            if last:
                break
            time.sleep(0.05)
        counts = engine.executor.retry_counts()
    return {"runs": runs, "committed": committed, **_counts(counts)}


def _counts(counts: Any) -> dict[str, Any]:
    return {"units": counts.units, "attempts": counts.attempts, "retries": dict(counts.retries)}


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
    """Counts samples in which a transaction on one of the given boundaries was blocked."""

    def __init__(self, engine: Engine, boundary_ids: set[str]) -> None:
        self._engine, self._ids = engine, boundary_ids
        self.samples = self.blocked = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            rows = self._engine.executor.read("bench/blocked_transactions")
            self.samples += 1
            if any(r["boundary_id"] in self._ids for r in rows):
                self.blocked += 1
            self._stop.wait(SAMPLE_S)

    def __enter__(self) -> _Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def one_boundary(engine: Engine, run: str, sets: int) -> tuple[Counter[str], int, _Sampler]:
    boundary_id = f"bench-conc-one-{run}"
    engine.boundary(boundary_id)
    stop = Path(f"/tmp/{boundary_id}.stop")
    with _Sampler(engine, {boundary_id}) as sampler:
        czar = _spawn("czar", boundary_id, str(stop))
        writers = [_spawn("writer", boundary_id, f"{run}-{n}", str(sets)) for n in "abc"]
        results = [_result(w) for w in writers]
        stop.touch()
        czar_result = _result(czar)
    stop.unlink()
    retries: Counter[str] = Counter()
    for r in [*results, czar_result]:
        retries.update(r["retries"])
    if any(r["outcomes"] != {"commit": sets} for r in results):
        raise SystemExit(f"not every writer set committed: {[r['outcomes'] for r in results]}")
    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    seqs = [row["seq"] for row in ledger if row["status"] == "ratified"]
    if seqs != list(range(1, len(seqs) + 1)) or len(seqs) != 3 * sets + czar_result["committed"]:
        raise SystemExit(f"the ledger of {boundary_id} is not one contiguous seq")
    return retries, czar_result["committed"], sampler


def isolation(engine: Engine, run: str, sets: int) -> tuple[float, list[float], float, _Sampler]:
    alone_id = f"bench-conc-alone-{run}"
    engine.boundary(alone_id)
    alone = _result(_spawn("writer", alone_id, f"{run}-alone", str(sets)))
    alone_rate = alone["sets"] / alone["elapsed"]
    ids = [f"bench-conc-eight-{run}-{n}" for n in range(8)]
    for b in ids:
        engine.boundary(b)
    with _Sampler(engine, set(ids)) as sampler:
        started = time.perf_counter()
        workers = [_spawn("writer", b, f"{run}-{n}", str(sets)) for n, b in enumerate(ids)]
        results = [_result(w) for w in workers]
        wall = time.perf_counter() - started
    rates = [r["sets"] / r["elapsed"] for r in results]
    return alone_rate, rates, 8 * sets / wall, sampler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=int, default=200, help="sets per writer process")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        role, boundary_id, *rest = args.worker
        if role == "czar":
            result = _czar(boundary_id, rest[0])
        else:
            result = _writer(boundary_id, rest[0], int(rest[1]))
        print(json.dumps(result), flush=True)
        return

    cores = os.cpu_count() or 1
    run = uuid.uuid4().hex[:8]
    with Engine.connect() as engine:
        retries, czar_sets, queued = one_boundary(engine, run, args.sets)
        alone, rates, aggregate, sampler = isolation(engine, run, args.sets)
    per_process = sum(rates) / len(rates)
    floor = 0.8 * cores / 8
    figure(
        "concurrency_one_boundary_deadlock_retries",
        retries[DEADLOCK],
        "count",
        "== 0",
        retries[DEADLOCK] == 0,
    )
    figure(
        "concurrency_one_boundary_transient_retries",
        sum(retries.values()),
        "count",
    )
    figure("concurrency_one_boundary_czar_sets", czar_sets, "count")
    figure("concurrency_one_boundary_blocked_samples", queued.blocked, "count")
    figure("concurrency_sets_per_s_alone", alone, "sets/s")
    figure("concurrency_sets_per_s_per_process_8_boundaries", per_process, "sets/s")
    figure("concurrency_sets_per_s_aggregate_8_boundaries", aggregate, "sets/s")
    ratio = per_process / alone
    figure(
        "concurrency_per_process_8_over_alone",
        ratio,
        "ratio",
        f">= {floor:.2f} (0.8 x {cores}/8)",
        ratio >= floor,
    )
    total = aggregate / alone
    figure("concurrency_aggregate_8_over_alone", total, "ratio", ">= 1.0", total >= 1.0)
    figure(
        "concurrency_8_boundaries_blocked_samples",
        sampler.blocked,
        "count",
        f"== 0 (of {sampler.samples} samples)",
        sampler.blocked == 0,
    )


if __name__ == "__main__":
    main()
