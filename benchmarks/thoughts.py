"""Thoughts: does keeping every proposal's text slow attention or the cycle?

Prints, from one run (``.venv/bin/python -m benchmarks.thoughts``):

- ``select_and_broadcast`` of 16 outputs (about 300 characters each; recorded, no gate) versus a
  bare ``encode`` of the same 17 texts, medians over interleaved runs (target <= 1.3x, as in
  ``benchmarks/attention.py``);
- ``get_attention_score`` p50 after those waves, next to a bare ``RETURN 1`` (target <= 2x);
- one ``SelectionBroadcastCycle.run`` with 4 subscribers returning 8 proposals each (one winner
  per key, the rest inhibited; nothing durable), over the graph: with every bus proposal kept as
  a thought (the default) and with a log that keeps nothing, interleaved, and their ratio
  (no target: keeping them costs one write transaction per broadcast that wrote nothing before,
  and its commit is most of it); then that write alone, 32 thoughts with their texts versus the
  same 32 with empty texts, interleaved (target <= 1.3x: the text itself is cheap). On a
  kg-context without thoughts only the first cycle series exists.

Every statement the compared cycle sends is EXPLAINed first: the run stops if one scans. The
same script runs on the code before and after the change (the figures in the issue note are
one run of each, each on a store of its own). Nothing is ever deleted. ``--quick`` (the test
suite): 4 outputs, one wave, 100 reads, 5 broadcasts.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time
import uuid
from collections.abc import Sequence
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    open_engine,
    percentile,
    statements_during,
    timings,
)
from kg_context.attention import WorkspaceAttention
from kg_context.cycle import (
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    GraphEntrySource,
    SelectionBroadcastCycle,
)
from kg_context.settings import AttentionSettings, CycleSettings
from kg_context.text.embeddings import get_embedder

OUTPUTS = 16
WAVES = 12
READS = 1_000
BROADCASTS = 40


def output_text(run: str, i: int) -> str:
    topics = ["an index on email", "a read-through cache", "batching the writes", "a replica"]
    return (
        f"Specialist {i} of {run} proposes {topics[i % 4]} for the user lookups: measure the p99 "
        "first, then change one thing at a time, keep the old path behind a flag for a week, and "
        "write down what each step cost so the next wave can compare against it honestly. "
        f"confidence: 0.{(i % 9) + 1}"
    )


class KeepNothing:
    def record(self, broadcast_id: str, cycle: int, thoughts: Sequence[Any]) -> None:
        return None

    def record_gate_outcomes(self, rows: Sequence[Any]) -> None:
        return None


def subscriber(name: str) -> BusSubscriber:
    def handler(ctx: BroadcastContext) -> list[BusProposal]:
        return [
            BusProposal(
                kind="ask_followup",
                key=f"followup-{k}",
                priority=0.5 + 0.01 * len(name) + 0.001 * k,
                text=f"{name} wonders about step {k} of cycle {ctx.cycle}: " + "detail " * 30,
            )
            for k in range(8)
        ]

    return BusSubscriber(name, handler)


def cycle_of(engine: Any, boundary_id: str, keep: bool) -> SelectionBroadcastCycle:
    extra: dict[str, Any] = {} if keep else {"thoughts": KeepNothing()}
    return SelectionBroadcastCycle(
        boundary_id=boundary_id,
        bus=BroadcastBus([subscriber(f"sub{i}") for i in range(4)], default_timeout_s=10.0),
        source=GraphEntrySource(engine.executor, boundary_id),
        gate=None,
        settings=CycleSettings(),
        count_tokens=lambda lines: [len(x.split()) for x in lines],
        **extra,
    )


def text_cost(engine: Any, boundary_id: str, cycle: SelectionBroadcastCycle) -> tuple[float, float]:
    """Median write of one broadcast's thoughts with their texts and with empty ones."""
    from dataclasses import replace

    from kg_context.cycle import GraphThoughtLog
    from kg_context.text.thoughts import thought_text

    log = GraphThoughtLog(engine.executor, boundary_id)
    thoughts = cycle.run().thoughts
    empty = thought_text("")
    full_times: list[float] = []
    empty_times: list[float] = []
    for n in range(BROADCASTS):
        for texts, into in ((True, full_times), (False, empty_times)):
            tag = f"{boundary_id}-text-{texts}-{n}"
            batch = [
                replace(t, id=f"{tag}/{i}", text=t.text if texts else empty)
                for i, t in enumerate(thoughts)
            ]
            started = time.perf_counter()
            log.record(tag, n, batch)
            into.append(time.perf_counter() - started)
    return statistics.median(full_times), statistics.median(empty_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    global OUTPUTS, WAVES, READS, BROADCASTS
    if parser.parse_args().quick:
        OUTPUTS, WAVES, READS, BROADCASTS = 4, 1, 100, 5
    engine, counts = open_engine("thoughts")
    run = uuid.uuid4().hex[:8]
    has_thoughts = "thoughts" in inspect.signature(SelectionBroadcastCycle).parameters
    with engine:
        attention = WorkspaceAttention(engine, scope="global", settings=AttentionSettings())
        outputs = {f"bench-thoughts-{run}-s{i}": output_text(run, i) for i in range(OUTPUTS)}
        query = "How do we make user lookups by email faster without risking the write path?"
        texts = [query, *(outputs[k] for k in sorted(outputs))]
        embedder = get_embedder()
        embedder.encode(texts)
        attention.select_and_broadcast(outputs, query, f"bench-thoughts-{run}-warm")
        ours, bare = [], []
        for n in range(WAVES):
            started = time.perf_counter()
            embedder.encode(texts)
            bare.append(time.perf_counter() - started)
            started = time.perf_counter()
            attention.select_and_broadcast(outputs, query, f"bench-thoughts-{run}-{n}")
            ours.append(time.perf_counter() - started)
        last = attention.select_and_broadcast(outputs, query, f"bench-thoughts-{run}-last")
        specialists = sorted(w.specialist_id for w in last.winners)
        reads = iter(range(10**9))
        score = timings(
            lambda: attention.get_attention_score(specialists[next(reads) % len(specialists)]),
            READS,
            warmup=READS // 10,
        )
        ping = timings(lambda: engine.executor.read("admin/ping"), READS, warmup=READS // 10)

        boundary_id = f"bench-thoughts-{run}"
        kept = cycle_of(engine, boundary_id, True)
        plain = cycle_of(engine, boundary_id, False) if has_thoughts else kept
        _, names = statements_during(engine, kept.run)
        plain.run()
        # the statements compared seek by index (the cycle's thoughts write MERGEs by its key)
        check_plans(engine, names | {"attention/score", "admin/ping"})
        with_thoughts, without = [], []
        for _ in range(BROADCASTS):
            started = time.perf_counter()
            kept.run()
            with_thoughts.append(time.perf_counter() - started)
            if has_thoughts:
                started = time.perf_counter()
                plain.run()
                without.append(time.perf_counter() - started)
        texts_cost = text_cost(engine, boundary_id, kept) if has_thoughts else None

    count_figures(counts)
    ours_med, bare_med = statistics.median(ours), statistics.median(bare)
    figure(f"select_and_broadcast_{OUTPUTS}_median", ours_med * 1000, "ms")
    figure(f"encode_{OUTPUTS + 1}_median", bare_med * 1000, "ms")
    over = ours_med / bare_med
    figure("select_and_broadcast_over_encode", over, "ratio", "<= 1.3", over <= 1.3)
    score_p50, ping_p50 = percentile(score, 50), percentile(ping, 50)
    figure("attention_score_p50", score_p50 * 1000, "ms")
    figure("ping_p50", ping_p50 * 1000, "ms")
    figure(
        "attention_score_over_ping_p50",
        score_p50 / ping_p50,
        "ratio",
        "<= 2",
        score_p50 / ping_p50 <= 2,
    )
    kept_med = statistics.median(with_thoughts)
    figure("cycle_run_median", kept_med * 1000, "ms")
    if without:
        plain_med = statistics.median(without)
        figure("cycle_run_keeping_nothing_median", plain_med * 1000, "ms")
        figure("cycle_run_thoughts_over_none", kept_med / plain_med, "ratio")
    if texts_cost is not None:
        full, empty = texts_cost
        figure("thought_write_32_median", full * 1000, "ms")
        figure("thought_write_32_empty_texts_median", empty * 1000, "ms")
        figure("thought_texts_over_empty", full / empty, "ratio", "<= 1.3", full / empty <= 1.3)


if __name__ == "__main__":
    main()
