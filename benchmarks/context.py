"""What the context a model reads costs over a plain window read: ``Boundary.context(8192)`` and
``Boundary.context(8192, query=...)`` on a boundary whose window holds 2,000 resident entries
(``--quick``: 200), each p50 over the p50 of ``Boundary.window()`` of the same boundary, measured
in one run, interleaved (targets: <= 1.5 without a query, <= 2.5 with one).

The boundary is built through the gate's batched path (``Boundary.commit_many``, 20 entries per
proposal): decisions (some requiring the one before), constraints, facts a decision requires,
and open questions on a long lease, every one of them held, so the czar keeps all of them in the
window; the record is embedded once (``embed_pending``) so the query path ranks every entry by
vector as well as by words. The boundary is reused by later runs (never deleted).

Breakdown: the statement that reads the window for the context, the read-only record search
alone, and the window's and the text's tokens. Ends with one JSON line per figure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from benchmarks._common import check_plans, count_figures, figure, median, open_engine, timings
from kg_context.engine import BoundaryHandle, Engine
from kg_context.record.search import embed_pending, search_record

BUDGET = 8192
PER_PROPOSAL = 20
QUERY = "which cache serves the read path of the checkout service"
TARGET_PLAIN = 1.5
TARGET_QUERY = 2.5
_TOPICS = ("checkout", "search", "billing", "inventory", "shipping", "identity", "pricing")
_WORDS = ("cache", "queue", "database", "index", "replica", "timeout", "retry", "schema")


def _entry(n: int, prefix: str) -> dict[str, Any]:
    topic, word = _TOPICS[n % len(_TOPICS)], _WORDS[(n // 7) % len(_WORDS)]
    body = (
        f"For the {topic} service we settle the {word} question number {n}: keep the {word} "
        f"close to the {topic} read path, measure it weekly and revisit it when load doubles."
    )
    entry: dict[str, Any] = {"id": f"{prefix}e{n}", "key": f"{topic}-{word}-{n}", "body": body}
    kind = n % 10
    if kind == 6:
        entry["class"] = "constraint"
    elif kind == 7:
        entry.update({"class": "fact", "attributes": {"source": "bench"}})
    elif kind == 9:
        entry.update({"class": "open_question", "expires_after": 1000})
    else:
        entry["class"] = "decision"
        if kind in (1, 8):  # requires the decision (or the fact) just before it
            entry["requires"] = [{"entry_id": f"{prefix}e{n - 1}", "policy": "hard"}]
    return entry


def ensure_boundary(engine: Engine, entries: int) -> BoundaryHandle:
    """The benchmark boundary with ``entries`` resident entries, built once through the gate."""
    boundary_id = f"bench-context-{entries}"
    boundary = engine.boundary(boundary_id)
    resident = len(boundary.window().entries)
    if resident == entries:
        return boundary
    if resident:
        raise SystemExit(
            f"boundary {boundary_id} holds {resident} resident entries, not {entries}; it is "
            "never deleted: rename the benchmark boundary"
        )
    prefix = f"{boundary_id}:"
    proposals = [
        {
            "id": f"{boundary_id}/p{start}",
            "boundary_id": boundary_id,
            "writer_id": "bench-agent",
            "writer_kind": "agent",
            "targets": [f"t{start}"],
            "entries": [_entry(n, prefix) for n in range(start, start + PER_PROPOSAL)],
        }
        for start in range(0, entries, PER_PROPOSAL)
    ]
    decisions = boundary.commit_many(proposals)
    refused = [d for d in decisions if d.outcome != "commit"]
    if refused:
        raise SystemExit(f"the gate did not commit {len(refused)} sets: {refused[0]}")
    embed_pending(boundary)
    return boundary


def main(argv: list[str] | None = None, *, engine: Engine | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="200 entries, fewer runs")
    args = parser.parse_args(argv)
    entries, runs = (200, 10) if args.quick else (2_000, 40)
    counts = None
    if engine is None:
        engine, counts = open_engine("context")
        own = engine
    else:
        own = None
    try:
        boundary = ensure_boundary(engine, entries)
        check_plans(engine, ["window/resident", "window/context", "window/index"])
        plain = boundary.context(BUDGET)
        queried = boundary.context(BUDGET, query=QUERY)
        window_s, context_s, query_s = _interleaved(boundary, runs)
        read_s = timings(
            lambda: engine.executor.read(
                "window/context", boundary_id=boundary.id, scratch_class="scratch"
            ),
            runs,
            warmup=3,
            label="window/context read",
        )
        search_s = timings(
            lambda: search_record(boundary, QUERY, k=10, read_only=True), runs, 3, "record search"
        )
    finally:
        if own is not None:
            own.close()
    window_p50, context_p50, query_p50 = median(window_s), median(context_s), median(query_s)
    ratio, ratio_q = context_p50 / window_p50, query_p50 / window_p50
    print(
        f"# context: {entries} resident entries, {plain.manifest.window_tokens} window tokens; "
        f"window() p50 {window_p50 * 1e3:.1f} ms; context({BUDGET}) p50 "
        f"{context_p50 * 1e3:.1f} ms ({plain.tokens} tokens, {len(plain.manifest.included_ids)} "
        f"items, {plain.manifest.left_out_count} left out); with a query p50 "
        f"{query_p50 * 1e3:.1f} ms ({queried.tokens} tokens); breakdown: window/context read "
        f"p50 {median(read_s) * 1e3:.1f} ms, record search p50 {median(search_s) * 1e3:.1f} ms",
        file=sys.stderr,
    )
    if counts is not None:
        count_figures(counts)
    figure("context_window_entries", entries, "entries")
    figure("context_window_tokens", plain.manifest.window_tokens, "tokens")
    figure("context_tokens", plain.tokens, "tokens", f"<= {BUDGET}", plain.tokens <= BUDGET)
    figure("context_query_tokens", queried.tokens, "tokens", f"<= {BUDGET}",
           queried.tokens <= BUDGET)  # fmt: skip
    figure("window_read_p50", window_p50 * 1e3, "ms")
    figure("context_p50", context_p50 * 1e3, "ms")
    figure("context_query_p50", query_p50 * 1e3, "ms")
    figure("context_read_statement_p50", median(read_s) * 1e3, "ms")
    figure("context_record_search_p50", median(search_s) * 1e3, "ms")
    figure("context_p50_over_window_p50", ratio, "ratio", f"<= {TARGET_PLAIN}",
           ratio <= TARGET_PLAIN)  # fmt: skip
    figure("context_query_p50_over_window_p50", ratio_q, "ratio", f"<= {TARGET_QUERY}",
           ratio_q <= TARGET_QUERY)  # fmt: skip


def _interleaved(
    boundary: BoundaryHandle, runs: int
) -> tuple[list[float], list[float], list[float]]:
    """The three calls timed in turn, so a noisy machine weighs on each alike."""
    calls: tuple[Callable[[], object], ...] = (
        boundary.window,
        lambda: boundary.context(BUDGET),
        lambda: boundary.context(BUDGET, query=QUERY),
    )
    for call in calls:  # warm-up: caches, the embedding model, the plans
        for _ in range(3):
            call()
    samples: tuple[list[float], list[float], list[float]] = ([], [], [])
    for _ in range(runs):
        for call, out in zip(calls, samples, strict=True):
            out.extend(timings(call, 1, warmup=0, label="interleaved"))
    return samples


if __name__ == "__main__":
    main()
