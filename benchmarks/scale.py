"""The scale benchmark: many boundaries in one database that keeps growing.

One run builds one database through the gate's batched path (``Boundary.commit_many``, 500 sets
per locked transaction, the czar cadence off, ``--workers`` boundaries at once:
``benchmarks/_scale_build.py`` says how and why): ``--boundaries`` boundaries (100) holding
``--sets`` committed sets between them (1,000,000: five million entries and their edges, every
entry embedded), a boundary with ``--live`` live entries (50,000) beside a growing history
(half an entry per set: 500,000 entries at full size), and ``--proposal-nodes`` attention
ProposalNodes (ten per set). It measures everything at 1% of that size, grows the database to
10%, measures again, grows it to 100%, measures again, and prints each figure at
each size and the ratio of the largest size to the 1% one, all within the one run:

- ``commit()`` of one set on a boundary of the database, p50 and p99 over ``Config.singles``
  (500) commits, so the p99 is the 5th slowest and not one stray pause (target: ratio <= 1.2),
  and its p50 against a bare write transaction that writes the same graph for one set
  (``bench/commit_bare_full_*``: no reads, checks or lock; target <= 2x at every size), the two
  timed alternately;
- ``recall`` top-10 on one boundary, p50 (target: ratio <= 1.5), and recall@10 of its vector
  half against a brute-force cosine over that boundary's own entries (target >= 0.95);
- reachability, the czar's plan and the invalidation walk (10,000 descendants) on the boundary
  with 50,000 live entries while its history grows 100-fold (target: ratio <= 1.3 each);
- ``get_attention_score`` (the boundary scope), p50 (target: ratio <= 1.2).

Steady state: after each build the run settles (every index online, then the server idle:
``benchmarks/_scale_settle.py`` says why) before it measures, and says how many garbage
collections the server ran during each measurement.

Honest baselines: the engine ensures the schema on connect (a fresh store works); the store's
node and relationship counts are printed at start; every statement each measurement sent (the
executor counts them by name) is EXPLAINed and the run stops, loudly, if one scans instead of
seeking by index. Embeddings are synthetic (``benchmarks/_scale.py`` says why and how).

Before it builds, the run checks that the disk under the server's data directory holds what the
requested size needs (about 7 GB per 100,000 sets: ``benchmarks/_scale_disk.py``) and stops,
saying so, when it does not. Also printed: build time per size and component, the store's
counts at each size, the server's memory settings, heap in use and mapped index memory, and
(``--neo4j-home``, a local server's home) the store size on disk, in all and by component (each
store, each index, the transaction logs: ``benchmarks/_scale_store.py``, with KB per set), and
the server's resident memory.

    python -m benchmarks.scale                          # the full size
    python -m benchmarks.scale --sets 100000 --neo4j-home /path/to/neo4j/home
    python -m benchmarks.scale --sets 10000 --live 5000 --runs 21  # minutes: `make bench`
    python -m benchmarks.scale --quick                  # seconds: the test suite runs this
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._common import (
    open_engine,
    percentile,
    statements_during,
    store_counts,
)
from benchmarks._scale import chain_proposals, live_root, query_text
from benchmarks._scale_build import QUICK, Config, Run, build
from benchmarks._scale_disk import NotEnoughDisk, check_disk
from benchmarks._scale_report import report, server_report, size_label
from benchmarks._scale_settle import gc_during, settle
from benchmarks.commit import _full_rows
from kg_context.attention import WorkspaceAttention
from kg_context.db.connection import resolve_source
from kg_context.engine import Engine
from kg_context.gate.pure.constitution import load_constitution
from kg_context.record.search import vector_search
from kg_context.record.walk import walk
from kg_context.residency.czar_plan import plan_compaction
from kg_context.residency.reachability import reachable
from kg_context.residency.recall import recall
from kg_context.settings import AttentionSettings, LocalServerSettings

# -- measuring --------------------------------------------------------------------------------


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def measure_commit(run: Run) -> dict[str, float]:
    """Single commits on the first boundary, alternating with bare writes of one set."""
    cfg, engine = run.config, run.engine
    b = run.chains[0]
    boundary = run.handle(b)
    start = run.built[b]
    total = cfg.warmup + cfg.singles
    gate = chain_proposals(b, 0, start, start + total)
    bare_boundary = run.bare
    run.handle(bare_boundary)
    rows = _full_rows(
        bare_boundary, chain_proposals(bare_boundary, 1, run.bare_sets, run.bare_sets + total)
    )
    sets, supersedes, derived, requires = rows
    previous = f"{bare_boundary}-set{run.bare_sets - 1}"
    for n, row in enumerate(sets):
        row["props"]["seq"] = run.bare_sets + n + 1
        row["prev_id"] = previous
        previous = row["id"]

    def bare_write(n: int) -> None:
        ids = {e["props"]["id"] for e in sets[n]["entries"]}

        def work(tx: Any) -> None:
            tx.run("bench/commit_bare_full_sets", sets=[sets[n]])
            tx.run(
                "bench/commit_bare_full_edges",
                boundary_id=bare_boundary,
                supersedes=[r for r in supersedes if r["from"] in ids],
                derived=[r for r in derived if r["from"] in ids],
                requires=[r for r in requires if r["from"] in ids],
            )

        engine.executor.write_tx(work)

    ours: list[float] = []
    theirs: list[float] = []

    def alternate() -> None:
        for n in range(total):
            started = time.perf_counter()
            decision = boundary.commit(gate[n])
            gate_s = time.perf_counter() - started
            started = time.perf_counter()
            bare_write(n)
            bare_s = time.perf_counter() - started
            if decision.outcome != "commit":
                raise SystemExit(f"a benchmark commit was refused: {decision}")
            if n >= cfg.warmup:
                ours.append(gate_s)
                theirs.append(bare_s)

    _, names = statements_during(engine, alternate)
    run.check(names)
    run.built[b] = start + total
    run.bare_sets += total
    return {
        "commit_p50_ms": percentile(ours, 50) * 1000,
        "commit_p99_ms": percentile(ours, 99) * 1000,
        "bare_p50_ms": percentile(theirs, 50) * 1000,
    }


def _embeddings(run: Run, boundary_id: str) -> tuple[list[str], np.ndarray[Any, Any]]:
    """The boundary's embedded entries: their ids and one float32 matrix, read a page at a
    time (the ground truth of recall@10)."""
    ids: list[str] = []
    pages: list[np.ndarray[Any, Any]] = []
    page = 5_000
    while True:
        rows = run.engine.executor.read(
            "bench/scale_boundary_embeddings", boundary_id=boundary_id, skip=len(ids), limit=page
        )
        ids += [str(r["id"]) for r in rows]
        if rows:  # a boundary of exactly N pages ends on an empty one
            pages.append(np.asarray([r["embedding"] for r in rows], dtype=np.float32))
        if len(rows) < page:
            return ids, np.concatenate(pages) if pages else np.zeros((0, 384), dtype=np.float32)


def measure_recall(run: Run) -> dict[str, float]:
    """recall() top-10 on the second boundary; recall@10 of the vector half vs brute force."""
    cfg, engine = run.config, run.engine
    b = run.chains[1 % len(run.chains)]
    boundary = run.handle(b)
    texts = [query_text(q) for q in range(cfg.queries + cfg.warmup)]

    def timed_recalls() -> list[float]:
        samples = []
        for n, text in enumerate(texts):
            started = time.perf_counter()
            recall(boundary, text, k=10, embedder=run.encoder)
            if n >= cfg.warmup:
                samples.append(time.perf_counter() - started)
        return samples

    samples, names = statements_during(engine, timed_recalls)
    ids, matrix = _embeddings(run, b)
    found: list[float] = []
    strategies: set[str] = set()

    def ann_recalls() -> None:
        for text in texts[cfg.warmup :]:
            vector = run.encoder.encode([text])[0]
            truth = {ids[i] for i in np.argsort(-(matrix @ vector), kind="stable")[:10]}
            searched = vector_search(boundary, vector, 10)
            strategies.add(searched.strategy)
            got = {str(r["entry_id"]) for r in searched.rows}
            found.append(len(got & truth) / min(10, len(truth)))

    _, more = statements_during(engine, ann_recalls)
    run.check(names | more)
    print(f"# recall on {b}: {len(ids):,} embedded entries, {sorted(strategies)}", file=sys.stderr)
    return {
        "recall_p50_ms": percentile(samples, 50) * 1000,
        "recall_at_10": float(np.mean(found)),
        "recall_boundary_index_path": 1.0 if "boundary-index" in strategies else 0.0,
    }


def measure_residency(run: Run) -> dict[str, float]:
    """Reachability, the czar's plan and the invalidation walk on the live boundary."""
    cfg, engine = run.config, run.engine
    boundary = run.handle(run.live)
    constitution = load_constitution()
    root = live_root(run.live)
    expected = len(range(2, run.live_sets, 2)) * 2
    results: dict[str, float] = {}

    def reach() -> object:
        found = reachable(boundary, constitution=constitution)
        if len(found.reached) < cfg.live:
            raise SystemExit(f"only {len(found.reached)} of {cfg.live} live entries reachable")
        return found

    def plan() -> object:
        return plan_compaction(
            engine.executor, run.live, constitution, settings=engine.settings.residency
        )

    def walked() -> object:
        found = walk(engine.executor, run.live, {root: "live"}, max_depth=64, max_nodes=100_000)
        if found.reached != expected:
            raise SystemExit(f"the walk reached {found.reached}, not {expected}")
        return found

    names: set[str] = set()
    for name, fn in (("reachability", reach), ("czar_plan", plan), ("walk", walked)):

        def repeat(fn: Callable[[], object] = fn) -> list[float]:
            return [_timed(fn) for _ in range(cfg.runs + 1)][1:]

        samples, used = statements_during(engine, repeat)
        names |= used
        results[f"{name}_p50_ms"] = percentile(samples, 50) * 1000
    run.check(names)
    return results


def measure_attention(run: Run) -> dict[str, float]:
    """get_attention_score (boundary scope) for the third boundary's specialists."""
    cfg, engine = run.config, run.engine
    b = run.chains[2 % len(run.chains)]
    attention = WorkspaceAttention(
        engine, boundary_id=b, sink=run.handle(b), settings=AttentionSettings(strict=True)
    )
    specialists = [f"scale-{run.run_id}-s{i}" for i in range(cfg.specialists)]

    def reads() -> list[float]:
        samples = []
        for n in range(cfg.reads + cfg.warmup):
            started = time.perf_counter()
            attention.get_attention_score(specialists[n % len(specialists)])
            if n >= cfg.warmup:
                samples.append(time.perf_counter() - started)
        return samples

    samples, names = statements_during(engine, reads)
    if attention.get_attention_score(specialists[0]) is None:
        raise SystemExit(f"no attention score for {specialists[0]} in {b}")
    run.check(names)
    return {"attention_score_p50_ms": percentile(samples, 50) * 1000}


def _data_dir(home: Path | None, engine: Engine | None) -> Path | None:
    """The server's data directory: under ``--neo4j-home``, else the local server's (the one
    ``kg-context neo4j start`` runs) when that is the server; else unknown here."""
    if home is None:
        source = engine.target.source if engine is not None else resolve_source()
        if source != "local":
            return None
        home = LocalServerSettings().home_dir.resolve()
    return home / "data"


def main(argv: list[str] | None = None, *, engine: Engine | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    parser.add_argument("--sets", type=int, help="committed sets at full size (1,000,000)")
    parser.add_argument("--boundaries", type=int, help="boundaries holding them (100)")
    parser.add_argument("--proposal-nodes", type=int, help="at full size (ten per set)")
    parser.add_argument(
        "--live", type=int, help="live entries of the residency boundary (50,000; a multiple of 5)"
    )
    parser.add_argument(
        "--runs", type=int, help="timed runs of reachability, czar plan and walk (7)"
    )
    parser.add_argument(
        "--workers", type=int, help="boundaries built at once (2: one per core of the server)"
    )
    parser.add_argument("--batch", type=int, help="sets per commit_many call (500)")
    parser.add_argument("--neo4j-home", type=Path, help="a local server's home: disk and RSS")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else Config()
    if args.sets:  # the history and the ProposalNodes keep their share of the size
        cfg = replace(cfg, sets=args.sets, history=args.sets // 2, proposal_nodes=10 * args.sets)
    if args.live:
        cfg = replace(cfg, live=args.live)
    if args.runs:
        cfg = replace(cfg, runs=args.runs)
    if args.boundaries:
        cfg = replace(cfg, boundaries=args.boundaries)
    if args.workers:
        cfg = replace(cfg, workers=args.workers)
    if args.batch:
        cfg = replace(cfg, batch=args.batch)
    if args.proposal_nodes is not None:
        cfg = replace(cfg, proposal_nodes=args.proposal_nodes)
    if round(cfg.sets * min(cfg.steps) / cfg.boundaries) < 1:
        raise SystemExit(
            f"scale: {cfg.sets:,} sets over {cfg.boundaries} boundaries leave none per boundary "
            f"at the smallest size ({min(cfg.steps):.0%}): use at least "
            f"{round(cfg.boundaries / min(cfg.steps)):,} sets or fewer --boundaries"
        )
    try:  # before anything is built: does the server's disk hold the size?
        data_dir = _data_dir(args.neo4j_home, engine)
        print(check_disk(cfg.sets, data_dir).describe(), file=sys.stderr)
    except NotEnoughDisk as error:
        raise SystemExit(f"scale: {error}") from None
    if engine is None:
        opened, counts = open_engine("scale")
        with opened:
            sizes, server = run_scale(opened, cfg, args.neo4j_home)
    else:  # the caller's engine (the test suite's): counted, never closed here
        counts = store_counts(engine)
        print(f"# scale: the store holds {counts[0]:,} nodes, {counts[1]:,} rels", file=sys.stderr)
        sizes, server = run_scale(engine, cfg, args.neo4j_home)
    report(cfg, counts, sizes, server)


def run_scale(
    engine: Engine, cfg: Config, home: Path | None
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Build and measure at every size of ``cfg.steps``; the sizes and the server's report. The
    build embeds with its synthetic encoder, so its commits embed nothing themselves: it runs on
    an engine like ``engine`` with ``embedding.on_commit`` off."""
    embedding = engine.settings.embedding.model_copy(update={"on_commit": False})
    settings = replace(engine.settings, embedding=embedding)
    with Engine.connect(engine.target, settings=settings, check_schema=False) as deferred:
        return _run_scale(deferred, cfg, home)


def _run_scale(
    engine: Engine, cfg: Config, home: Path | None
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    for row in engine.executor.read("bench/server_settings"):
        print(f"# setting {row['name']}={row['value']}", file=sys.stderr)
    run = Run(engine, cfg, uuid.uuid4().hex[:8])
    sizes: list[dict[str, Any]] = []
    for fraction in cfg.steps:
        label = size_label(fraction)
        print(f"# building to {label} of {cfg.sets:,} sets", file=sys.stderr)
        took = build(run, fraction)
        # The build's leftovers are not the size's cost (benchmarks/_scale_settle.py).
        settled = settle(engine, timeout_s=cfg.settle_timeout_s)
        nodes, rels = store_counts(engine)
        measured: dict[str, float] = {}
        measures: list[tuple[str, Callable[[Run], dict[str, float]]]] = [
            ("commit", measure_commit),
            ("recall", measure_recall),
            ("residency", measure_residency),
        ]
        if run.proposal_nodes:  # without ProposalNodes there is no attention score to read
            measures.append(("attention", measure_attention))
        for what, measure in measures:
            measured |= gc_during(engine, f"{what} at {label}", partial(measure, run))
        sets = sum(run.built.values())
        sizes.append(
            {
                "label": label,
                "build": took,
                "settle_s": settled,
                "sets": sets,
                "entries": 5 * sets,
                "proposal_nodes": run.proposal_nodes,
                "history": 5 * (run.history_sets - 1),
                "nodes": nodes,
                "relationships": rels,
                "measured": measured,
            }
        )
        print(f"# {label}: {measured}", file=sys.stderr)
    return sizes, server_report(engine, home, sizes[-1]["sets"] if sizes else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
