"""Search bound: up to what size is ranking a boundary exactly cheaper than its own vector index?

The vector half of a record search ranks a boundary with at most
``KG_CONTEXT_SEARCH_EXACT_MAX_ENTRIES`` embedded entries exactly
(``record/search_vector_exact``: a seek on the boundary id, then the cosine of every embedded
entry, so its cost grows with the boundary: mostly the reading of each 1.5 KB embedding), and a
larger one through the boundary's own vector index once that is online
(``record/search_vector_boundary``: ``max(100, 4k)`` neighbours, re-ranked exactly, so its cost
is about flat past 100 entries). This benchmark measures both statements on the same
boundaries, in one run, so that the bound is set where the two cost the same, as measured.

One run builds one boundary per size in ``SIZES`` (embedded entries: 5 to 2,000), each a chain
of five-entry sets committed through the gate (``benchmarks/_scale.py``'s ``chain_proposals``:
supersessions, derivations, requirements) and embedded by ``embed_pending`` with the scale
benchmark's synthetic encoder (384 dimensions, unit length, as the model's). Every boundary gets
its own vector index as the engine makes it (``ensure_boundary_index``: label, then create),
whatever its size, and the run waits until every index is online. Then, round after round,
every boundary (in a rotating order) is asked both statements for the same query vector, top 10
(which goes first alternates), ``QUERIES`` rounds after a warm-up: a load that drifts during
the run weighs on every size and both paths alike. Printed, per size N:

- ``search_bound_exact_p50_n<N>`` and ``search_bound_index_p50_n<N>`` (ms);
- ``search_bound_exact_over_index_n<N>``: past 1, the index is the cheaper path;
- ``search_bound_exact_over_exact_5_n<N>`` and ``search_bound_index_over_exact_5_n<N>``: each
  path over the exact statement on a 5-entry boundary (what the scale benchmark's recall ratio
  compares at its 100% and 1% sizes);
- ``search_bound_index_recall_at_10_n<N>``: the index path's top 10 against the exact one's
  (target >= 0.95, as the scale benchmark's recall@10). Both paths' answers are checked to be
  the boundary's own entries; the run stops otherwise.

and the summary: ``search_bound_crossover_entries`` (the smallest size measured from which on
the exact statement costs at least what the index does, at every larger size too) and
``search_bound_crossover_estimate_entries`` (linear between the two sizes around it), where the
bound belongs; ``search_bound_exact_past_growth_entries`` (likewise, from where the exact
statement costs over 1.5x a 5-entry boundary's: past it, neither path keeps a boundary's search
within 1.5x of a small one's, as the index path itself costs more than that); and, at the
configured bound (``search_bound_configured_entries``), the two sides of the choice:
``search_bound_exact_at_bound_over_index`` (the largest size measured within the bound, exact
over index: target <= 1.1, the bound is not past the crossover) and
``search_bound_index_past_bound_over_exact`` (the smallest size measured past it, index over
exact: target <= 1.1, the bound is not short of it), with
``search_bound_exact_at_bound_over_exact_5`` (no target: what the bound costs a boundary just
within it). Every statement compared is EXPLAINed first: the run stops if one scans. Nothing is
ever deleted.

    python -m benchmarks.search_bound            # a minute or two
    python -m benchmarks.search_bound --quick    # seconds: the test suite runs this
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    open_engine,
    percentile,
    progress,
)
from benchmarks._scale import SyntheticEncoder, chain_proposals, query_text
from kg_context.record.search import embed_pending, unit
from kg_context.record.vector_index import (
    BoundaryIndex,
    boundary_index_state,
    boundary_vector_label,
    ensure_boundary_index,
)

SIZES: tuple[int, ...] = (5, 50, 100, 150, 200, 250, 300, 500, 1_000, 2_000)
QUICK_SIZES: tuple[int, ...] = (5, 50, 100)
QUERIES = 300
WARMUP = 30
K = 10
CANDIDATES = max(100, 4 * K)  # what kg_context/record/search.py asks the boundary's index for
EXACT = "record/search_vector_exact"
INDEX = "record/search_vector_boundary"
BATCH = 500  # sets per commit_many, as the scale benchmark commits
GROWTH = 1.5  # the scale benchmark's recall target: 100% over 1%
SAME = 1.1  # "costs about the same": within the noise of one run on a shared machine


def build(engine: Any, boundary_id: str, index: int, entries: int, encoder: Any) -> None:
    """A boundary of ``entries`` embedded entries (sets of five), with its own vector index."""
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    sets = entries // 5
    for first in range(0, sets, BATCH):
        decided = boundary.commit_many(
            chain_proposals(boundary_id, index, first, min(sets, first + BATCH))
        )
        refused = [d for d in decided if d.outcome != "commit"]
        if refused:
            raise SystemExit(f"the gate refused a benchmark set: {refused[0]}")
    embedded = embed_pending(boundary, embedder=encoder)
    if embedded != entries:
        raise SystemExit(f"{boundary_id}: embedded {embedded} entries, expected {entries}")
    ensure_boundary_index(engine.executor, boundary_id, engine.settings.embedding.dimensions)


@dataclass(slots=True)
class Series:
    """One boundary's timings of each statement, and the index path's overlap with exact."""

    exact: list[float] = field(default_factory=list)
    index: list[float] = field(default_factory=list)
    overlap: list[float] = field(default_factory=list)


def _timed_read(engine: Any, statement: str, **params: Any) -> tuple[float, list[Any]]:
    started = time.perf_counter()
    rows = engine.executor.read(statement, **params)
    return time.perf_counter() - started, rows


def query_once(engine: Any, boundary_id: str, vector: list[float], exact_first: bool) -> Any:
    """The exact and the index statement once each for ``vector``, in the order given."""
    exact = partial(_timed_read, engine, EXACT, boundary_id=boundary_id, vector=vector, k=K)
    index = partial(
        _timed_read,
        engine,
        INDEX,
        name=boundary_vector_label(boundary_id),
        candidates=CANDIDATES,
        vector=vector,
        boundary_id=boundary_id,
        k=K,
    )
    if exact_first:
        return exact(), index()
    got_index = index()
    return exact(), got_index


def compare(
    engine: Any, boundaries: dict[int, str], vectors: list[list[float]], runs: int, warmup: int
) -> dict[int, Series]:
    """Round after round, every boundary (in a rotating order) asked both statements for the
    same vector (alternating which goes first): a load that drifts during the run weighs on
    every size and both paths alike, so the ratios compare like with like."""
    series = {n: Series() for n in boundaries}
    sizes = list(boundaries)
    for r in progress(range(warmup + runs), "rounds", total=warmup + runs):
        vector = vectors[r % len(vectors)]
        shift = r % len(sizes)
        for n in sizes[shift:] + sizes[:shift]:
            boundary_id = boundaries[n]
            (exact_s, exact_rows), (index_s, index_rows) = query_once(
                engine, boundary_id, vector, exact_first=(r + n) % 2 == 0
            )
            truth = {str(row["entry_id"]) for row in exact_rows}
            got = {str(row["entry_id"]) for row in index_rows}
            if not all(e.startswith(f"{boundary_id}-s") for e in truth | got):
                raise SystemExit(f"{boundary_id}: a search answered another boundary's entry")
            if r < warmup:
                continue
            series[n].exact.append(exact_s)
            series[n].index.append(index_s)
            series[n].overlap.append(len(got & truth) / max(1, len(truth)))
    return series


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a run of seconds (the test suite)")
    quick = parser.parse_args().quick
    sizes, runs, warmup = (QUICK_SIZES, 30, 5) if quick else (SIZES, QUERIES, WARMUP)
    engine, counts = open_engine("search_bound")
    run = uuid.uuid4().hex[:8]
    encoder = SyntheticEncoder()
    bound = engine.settings.search.exact_max_entries
    boundaries = {n: f"bench-bound-{run}-n{n}" for n in sizes}
    with engine:
        for position, (n, boundary_id) in enumerate(boundaries.items()):
            build(engine, boundary_id, position, n, encoder)
        engine.executor.write("admin/await_indexes", timeout_s=600)
        for boundary_id in boundaries.values():
            state = boundary_index_state(engine.executor, boundary_id)
            if state is not BoundaryIndex.ONLINE:
                raise SystemExit(f"{boundary_id}: its vector index is {state}, not online")
        check_plans(engine, {EXACT, INDEX})
        vectors = [unit(encoder.encode([query_text(q)])[0].tolist()) for q in range(64)]
        results = compare(engine, boundaries, vectors, runs, warmup)

    count_figures(counts)
    exact = {n: percentile(r.exact, 50) for n, r in results.items()}
    index = {n: percentile(r.index, 50) for n, r in results.items()}
    smallest = min(sizes)
    for n in sizes:
        figure(f"search_bound_exact_p50_n{n}", exact[n] * 1000, "ms")
        figure(f"search_bound_index_p50_n{n}", index[n] * 1000, "ms")
        figure(f"search_bound_exact_over_index_n{n}", exact[n] / index[n], "ratio")
        figure(
            f"search_bound_exact_over_exact_{smallest}_n{n}", exact[n] / exact[smallest], "ratio"
        )
        figure(
            f"search_bound_index_over_exact_{smallest}_n{n}", index[n] / exact[smallest], "ratio"
        )
        recall_at_k = statistics.mean(results[n].overlap)
        figure(
            f"search_bound_index_recall_at_10_n{n}",
            recall_at_k,
            "ratio",
            ">= 0.95",
            recall_at_k >= 0.95,
        )
    crossover, estimate = crossing(sizes, exact, index)
    growth, _ = crossing(sizes, exact, {n: GROWTH * exact[smallest] for n in sizes})
    figure("search_bound_crossover_entries", crossover, "entries")
    figure("search_bound_crossover_estimate_entries", estimate, "entries")
    figure("search_bound_exact_past_growth_entries", growth, "entries")
    figure("search_bound_configured_entries", bound, "entries")
    within = max((n for n in sizes if n <= bound), default=None)
    past = min((n for n in sizes if n > bound), default=None)
    if within is not None:
        figure(
            f"search_bound_exact_at_bound_over_exact_{smallest}",
            exact[within] / exact[smallest],
            "ratio",
        )
        over_index = exact[within] / index[within]
        figure(
            "search_bound_exact_at_bound_over_index",
            over_index,
            "ratio",
            f"<= {SAME:g}",
            over_index <= SAME,
        )
    if past is not None:
        over_exact = index[past] / exact[past]
        figure(
            "search_bound_index_past_bound_over_exact",
            over_exact,
            "ratio",
            f"<= {SAME:g}",
            over_exact <= SAME,
        )


def crossing(
    sizes: tuple[int, ...], rising: dict[int, float], level: dict[int, float]
) -> tuple[int, float]:
    """The smallest size from which on ``rising`` is at least ``level`` at every larger size too
    (one past the largest size when it never is), and the size where it crosses, linear between
    the two measured sizes around it."""
    at = max(sizes) + 1
    for n in sorted(sizes, reverse=True):
        if rising[n] < level[n]:
            break
        at = n
    below = [n for n in sizes if n < at]
    if at > max(sizes) or not below:
        return at, float(at)
    lo = max(below)
    gap_lo, gap_at = level[lo] - rising[lo], rising[at] - level[at]
    return at, lo + (at - lo) * gap_lo / (gap_lo + gap_at) if gap_lo + gap_at > 0 else float(at)


if __name__ == "__main__":
    main()
