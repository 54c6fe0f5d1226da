"""Workspace attention: is the score read independent of graph size, and is a wave's overhead
small next to the embedding it cannot avoid?

Prints, from one run (``.venv/bin/python -m benchmarks.attention``):

- ``get_attention_score`` (the default, per-boundary scope) p50/p99 for specialists of a
  1,000-node population and of a 1,000,000-node population, each in a boundary of its own, and
  their ratio (target <= 1.2), the reads timed with the harness's objects frozen out of
  Python's cyclic collector (``harness_frozen``). The 1,000-node figures are taken before the
  1,000,000 nodes exist when this is the first run; the synthetic populations are kept and
  reused (counted by specialist-id prefix), so a rerun is fast. The ProposalNode count of the
  whole database at each phase is printed too.
- the same read next to a bare ``RETURN 1`` round trip (``admin/ping``; target p50 <= 2x).
- ``select_and_broadcast`` of 64 outputs versus a bare ``encode`` of the same 65 texts (query and
  outputs; target <= 1.3x), medians, interleaved. Pass ``--gate`` to propose the winners to the
  gate of the large population's boundary as well (the default records the waves only).

The schema is ensured on connect (a fresh store works), the store's counts are printed at start,
and the statements compared are EXPLAINed: the run stops if one scans. Nothing is ever deleted.
``--quick`` (the test suite): 1,000 against 20,000 nodes, 200 reads, one wave of 4 outputs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    harness_frozen,
    open_engine,
    percentile,
    progress,
    statements_during,
    timings,
)
from kg_context.attention import WorkspaceAttention
from kg_context.db.text_index import boundary_token
from kg_context.engine import Engine
from kg_context.settings import AttentionSettings
from kg_context.text.embeddings import get_embedder

# prefix, nodes, specialists; every population lives in the boundary named by its prefix (the
# "-v3-" populations carry their boundary, as every ProposalNode has since schema version 3)
Population = tuple[str, int, int]
BATCH = 10_000
BASE = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Size:
    small: Population = ("bench-attn-v3-1k-", 1_000, 10)
    large: Population = ("bench-attn-v3-1m-", 1_000_000, 200)
    reads: int = 2_000
    wave_outputs: int = 64
    wave_runs: int = 12


QUICK = Size(
    small=("bench-attn-v3-quick-1k-", 1_000, 10),
    large=("bench-attn-v3-quick-20k-", 20_000, 50),
    reads=200,
    wave_outputs=4,
    wave_runs=1,
)


def label(nodes: int) -> str:
    """1k, 20k, 1m: a population's size in a figure's name."""
    return f"{nodes // 1_000_000}m" if nodes >= 1_000_000 else f"{nodes // 1_000}k"


def boundary_of(prefix: str) -> str:
    return f"{prefix}boundary"


def population(engine: Engine, prefix: str, nodes: int, specialists: int) -> None:
    """Create the population's missing nodes, 10k per transaction, in its boundary."""
    engine.boundary(boundary_of(prefix))
    have = engine.executor.read("bench/count_proposal_nodes_by_prefix", prefix=prefix)[0]["n"]
    started = time.perf_counter()
    batches = range(have, nodes, BATCH)
    for start in progress(batches, f"population {prefix}", total=len(batches)):
        engine.executor.write(
            "bench/scale_proposal_nodes",
            start=start,
            end=min(nodes, start + BATCH),
            prefix=prefix,
            boundaries=[boundary_of(prefix)],
            tokens=[boundary_token(boundary_of(prefix))],
            specialists=specialists,
            base=BASE,
        )
    if have < nodes:
        took = time.perf_counter() - started
        print(f"# generated {nodes - have} nodes under {prefix} in {took:.1f}s", file=sys.stderr)


def total_nodes(engine: Engine) -> int:
    return int(engine.executor.read("bench/count_proposal_nodes")[0]["n"])


def score_reads(engine: Engine, prefix: str, specialists: int, reads: int) -> list[float]:
    boundary_id = boundary_of(prefix)
    attention = WorkspaceAttention(
        engine,
        boundary_id=boundary_id,
        sink=engine.boundary(boundary_id),
        settings=AttentionSettings(strict=True),
    )
    ids = [f"{prefix}s{i}" for i in range(specialists)]
    counter = iter(range(10**9))

    def read() -> None:
        if attention.get_attention_score(ids[next(counter) % len(ids)]) is None:
            raise RuntimeError(f"benchmark population {prefix} has no selected proposal")

    with harness_frozen():  # a full collection over the harness's objects is no read's
        return timings(read, reads, warmup=reads // 10)


def output_text(i: int) -> str:
    topics = ["an index on email", "a read-through cache", "batching the writes", "a replica"]
    return (
        f"Specialist {i} proposes {topics[i % len(topics)]} for the user lookups: measure the p99 "
        f"first, then change one thing at a time, and keep the old path behind a flag for a week. "
        f"confidence: 0.{(i % 9) + 1}"
    )


def run(size: Size, gate: bool) -> None:
    small_pop, large_pop = size.small, size.large
    engine, counts = open_engine("attention")  # ensures the schema; counts on stderr
    with engine:
        population(engine, *small_pop)
        small_db = total_nodes(engine)
        small, names = statements_during(
            engine, lambda: score_reads(engine, small_pop[0], small_pop[2], size.reads)
        )
        check_plans(engine, names | {"admin/ping"})  # the compared reads seek by index
        population(engine, *large_pop)
        large_db = total_nodes(engine)
        large = score_reads(engine, large_pop[0], large_pop[2], size.reads)
        ping = timings(
            lambda: engine.executor.read("admin/ping"), size.reads, warmup=size.reads // 10
        )

        # A wave of 64 outputs, from specialists of the large population (real track records):
        # with --gate in the population's boundary, the winners proposed to its gate; without,
        # recorded only, with no boundary (so its track records are read across boundaries).
        run = uuid.uuid4().hex[:8]
        wave = (
            WorkspaceAttention(
                engine, boundary_id=boundary_of(large_pop[0]), settings=AttentionSettings()
            )
            if gate
            else WorkspaceAttention(engine, scope="global", settings=AttentionSettings())
        )
        outputs = {f"{large_pop[0]}s{i}": output_text(i) for i in range(size.wave_outputs)}
        query = "How do we make user lookups by email faster without risking the write path?"
        texts = [query, *(outputs[k] for k in sorted(outputs))]
        embedder = get_embedder()
        embedder.encode(texts)
        ours, bare = [], []
        for n in range(size.wave_runs):
            started = time.perf_counter()
            embedder.encode(texts)
            bare.append(time.perf_counter() - started)
            started = time.perf_counter()
            wave.select_and_broadcast(outputs, query, f"bench-attn-task-{run}-{n}")
            ours.append(time.perf_counter() - started)

    count_figures(counts)
    small_p50, small_p99 = percentile(small, 50), percentile(small, 99)
    large_p50, large_p99 = percentile(large, 50), percentile(large, 99)
    ping_p50 = percentile(ping, 50)
    figure("attention_db_proposal_nodes_small_phase", small_db, "nodes")
    figure("attention_db_proposal_nodes_large_phase", large_db, "nodes")
    lo, hi = label(small_pop[1]), label(large_pop[1])
    figure(f"attention_score_{lo}_p50", small_p50 * 1000, "ms")
    figure(f"attention_score_{lo}_p99", small_p99 * 1000, "ms")
    figure(f"attention_score_{hi}_p50", large_p50 * 1000, "ms")
    figure(f"attention_score_{hi}_p99", large_p99 * 1000, "ms")
    ratio50, ratio99 = large_p50 / small_p50, large_p99 / small_p99
    figure(f"attention_score_{hi}_over_{lo}_p50", ratio50, "ratio", "<= 1.2", ratio50 <= 1.2)
    figure(f"attention_score_{hi}_over_{lo}_p99", ratio99, "ratio", "<= 1.2", ratio99 <= 1.2)
    figure("ping_p50", ping_p50 * 1000, "ms")
    over_ping = large_p50 / ping_p50
    figure(f"attention_score_{hi}_over_ping_p50", over_ping, "ratio", "<= 2", over_ping <= 2)
    ours_med, bare_med = statistics.median(ours), statistics.median(bare)
    figure(f"select_and_broadcast_{len(outputs)}_median", ours_med * 1000, "ms")
    figure(f"encode_{len(texts)}_median", bare_med * 1000, "ms")
    over_encode = ours_med / bare_med
    figure("select_and_broadcast_over_encode", over_encode, "ratio", "<= 1.3", over_encode <= 1.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gate", action="store_true", help="propose winners to a boundary")
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    args = parser.parse_args()
    run(QUICK if args.quick else Size(), args.gate)


if __name__ == "__main__":
    main()
