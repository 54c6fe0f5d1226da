"""The tamper-evident ledger: what sealing costs a commit, and how long ``audit verify`` takes.

Two boundaries are built through the gate's batched path (``Boundary.commit_many``, 500
proposals per locked transaction), the same sets into each, their batches alternating: one by a
gate that seals every decision into the ledger (the product's path), one by a gate with the
ledger's sealing switched off (``GateStore(seal_ledger=False)``, which exists for this
measurement only). Each set holds two entries: a decision that supersedes the previous set's
and a plan essentially derived from the previous set's plan. No czar runs (its compaction sets
would differ between the two). Both paths are warmed up first, untimed, on boundaries of their
own (one batch and one single commit each): a server's first batch plans the statements. The
commit overhead is the median over the pairs of batches (the same sets on each path, one right
after the other) of the sealed batch's time over the unsealed one's, minus one (target <= 5%;
the totals' ratio is printed beside it: a server checkpoint or collection lands in one batch of
one path and moves it by more than sealing costs); then the same for single ``commit()`` calls,
their medians, one set per locked transaction, as an orchestrator commits (alternating, after
the batches); beside them, the share of the sealed
path's time spent in ``seal`` itself (timed in-process around the function the commit path calls).

Then ``verify_ledger`` runs over the sealed boundary (every record recomputed from the graph,
paged), and must find it clean: its run time is the second figure.

Full size: 10,000 sets per boundary (``--sets``); ``--quick``: 300 (the test suite runs it).
"""

from __future__ import annotations

import argparse
import time
import uuid
from typing import Any
from unittest.mock import patch

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    median,
    open_engine,
    progress,
)
from kg_context.engine import Engine
from kg_context.gate.io import transaction_io
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.ledger import seal
from kg_context.text.tokens import get_token_counter

FULL_SETS = 10_000
QUICK_SETS = 300
BATCH = 500
QUICK_BATCH = 50  # more alternations in a short run
SINGLES = 200  # commit() calls per boundary after the batches, alternating (quick: 30)
QUICK_SINGLES = 30
TARGET_OVERHEAD_PCT = 5.0
COMMIT_STATEMENTS = ("gate/open_batch", "gate/load_snapshot", "gate/write_plan")
VERIFY_STATEMENTS = ("ledger/head", "ledger/sets_page", "ledger/orphan_entries")


def _proposals(boundary_id: str, start: int, stop: int) -> list[dict[str, Any]]:
    out = []
    for i in range(start, stop):
        decision, plan = f"{boundary_id}/d{i}", f"{boundary_id}/p{i}"
        previous = [] if i == 0 else [{"entry_id": f"{boundary_id}/d{i - 1}", "reason": "next"}]
        derived = [] if i == 0 else [{"entry_id": f"{boundary_id}/p{i - 1}", "essential": True}]
        out.append(
            {
                "id": f"{boundary_id}-p{i}",
                "boundary_id": boundary_id,
                "writer_id": "planner",
                "writer_kind": "agent",
                "set_id": f"{boundary_id}-set{i}",
                "targets": [f"t{i}"],
                "entries": [
                    {
                        "id": decision,
                        "class": "decision",
                        "key": "chain",
                        "body": f"decision {i}: use plan {i}",
                        "supersedes": previous,
                    },
                    {
                        "id": plan,
                        "class": "plan",
                        "key": f"plan-{i}",
                        "body": f"plan {i} follows from plan {i - 1}",
                        "derived_from": derived,
                    },
                ],
            }
        )
    return out


def _handle(engine: Engine, boundary_id: str, *, sealed: bool) -> Boundary:
    """A czar-free handle whose gate seals the ledger or not."""
    engine.boundary(boundary_id)  # created, with its constitution recorded
    counter = get_token_counter(engine.settings.embedding)
    store = GateStore(
        engine.executor,
        engine.constitutions.get,
        counter.count,
        default_lease_sets=engine.settings.residency.default_lease_sets,
        seal_ledger=sealed,
    )
    return Boundary(
        engine.executor,
        store,
        boundary_id,
        settings=engine.settings,
        constitution_for=engine.constitutions.get,
    )


def _commit(handle: Boundary, proposals: list[dict[str, Any]]) -> float:
    started = time.perf_counter()
    decisions = handle.commit_many(proposals)
    took = time.perf_counter() - started
    bad = [d for d in decisions if d.outcome != "commit"]
    if bad:
        raise SystemExit(f"a benchmark set was not committed: {bad[0]}")
    return took


def _commit_one(handle: Boundary, proposals: list[dict[str, Any]]) -> float:
    started = time.perf_counter()
    decision = handle.commit(proposals[0])
    took = time.perf_counter() - started
    if decision.outcome != "commit":
        raise SystemExit(f"a benchmark set was not committed: {decision}")
    return took


def _warm_up(engine: Engine, tag: str, batch: int) -> None:
    """Both paths once on boundaries of their own, not timed: the first batch on a server plans
    the commit's statements (seconds for the larger ones on a store that has grown since they
    were last planned), a cost of whichever path runs first, not of sealing."""
    for sealed in (True, False):
        handle = _handle(engine, f"bench-ledger-warm-{'sealed' if sealed else 'bare'}-{tag}",
                         sealed=sealed)  # fmt: skip
        _commit(handle, _proposals(handle.id, 0, batch))
        _commit_one(handle, _proposals(handle.id, batch, batch + 1))


def _timed(spent: dict[str, float]) -> Any:
    """``seal`` as the commit path calls it, its own time added up: the sealing's CPU share of
    the sealed path (the A/B above also counts the server writing the digests)."""

    def timed(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return seal(*args)
        finally:
            spent["seal"] += time.perf_counter() - started

    return timed


def main(argv: list[str] | None = None, *, engine: Engine | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SETS} sets (the suite)")
    parser.add_argument("--sets", type=int, help=f"sets per boundary ({FULL_SETS:,})")
    parser.add_argument(
        "--batch", type=int, help=f"sets per commit_many ({BATCH}; quick {QUICK_BATCH})"
    )
    args = parser.parse_args(argv)
    sets = args.sets or (QUICK_SETS if args.quick else FULL_SETS)
    batch = args.batch or (QUICK_BATCH if args.quick else BATCH)
    own = engine is None
    if engine is None:
        engine, counts = open_engine("ledger")
    else:
        counts = None
    # The statements the two paths and verify run: each seeks by index, or the run stops.
    check_plans(engine, [*COMMIT_STATEMENTS, *VERIFY_STATEMENTS])
    spent = dict.fromkeys(("sealed", "bare", "seal", "sealed_single", "bare_single"), 0.0)
    calls: dict[str, list[float]] = {"sealed": [], "bare": []}
    batches_s: dict[str, list[float]] = {"sealed": [], "bare": []}  # per batch, in pairs
    try:
        with patch.object(transaction_io, "seal_plan", _timed(spent)):
            tag = uuid.uuid4().hex[:8]
            _warm_up(engine, tag, batch)
            spent["seal"] = 0.0
            sealed = _handle(engine, f"bench-ledger-{tag}", sealed=True)
            bare = _handle(engine, f"bench-ledger-bare-{tag}", sealed=False)
            batches = range(0, sets, batch)
            for n, start in enumerate(progress(batches, "commit", total=len(batches))):
                stop = min(sets, start + batch)
                pair = [("sealed", sealed), ("bare", bare)]
                for name, handle in pair if n % 2 == 0 else pair[::-1]:  # alternate who goes first
                    took = _commit(handle, _proposals(handle.id, start, stop))
                    spent[name] += took
                    batches_s[name].append(took)
            singles = QUICK_SINGLES if args.quick else SINGLES
            for i in range(sets, sets + singles):  # one commit() per set, as orchestrators do
                for name, handle in pair if i % 2 == 0 else pair[::-1]:
                    took = _commit_one(handle, _proposals(handle.id, i, i + 1))
                    spent[f"{name}_single"] += took
                    calls[name].append(took)
            started = time.perf_counter()
            result = sealed.verify_ledger()
            verify_s = time.perf_counter() - started
            unsealed = bare.verify_ledger()
    finally:
        if own:
            engine.close()
    # The overhead of each pair of batches (the same sets, one right after the other), and
    # their median: a checkpoint or a collection on the server lands in one batch of a pair, on
    # either path, and moves a total by more than sealing costs (the totals' ratio read -5% to
    # +15% run to run on one code); it is printed beside, for reading.
    overhead = median(
        [(s / b - 1) * 100 for s, b in zip(batches_s["sealed"], batches_s["bare"], strict=True)]
    )
    total_overhead = (spent["sealed"] / spent["bare"] - 1) * 100
    if counts is not None:
        count_figures(counts)
    figure("ledger_sets", sets, "sets")
    figure("ledger_commit_sealed_sets_per_s", sets / spent["sealed"], "sets/s")
    figure("ledger_commit_unsealed_sets_per_s", sets / spent["bare"], "sets/s")
    figure("ledger_commit_total_overhead_pct", total_overhead, "%")
    figure(
        "ledger_commit_overhead_pct",
        overhead,
        "%",
        f"<= {TARGET_OVERHEAD_PCT:g}",
        overhead <= TARGET_OVERHEAD_PCT,
    )
    single = (median(calls["sealed"]) / median(calls["bare"]) - 1) * 100  # p50 per call
    figure(
        "ledger_single_commit_overhead_pct",
        single,
        "%",
        f"<= {TARGET_OVERHEAD_PCT:g}",
        single <= TARGET_OVERHEAD_PCT,
    )
    figure(
        "ledger_seal_share_pct",
        spent["seal"] / (spent["sealed"] + spent["sealed_single"]) * 100,
        "%",
    )
    figure("ledger_verify_s", verify_s, "s")
    total = sets + len(calls["sealed"])
    figure(
        "ledger_verify_records", result.records, "records", f"== {total}", result.records == total
    )
    figure("ledger_verify_findings", len(result.findings), "findings", "== 0", result.ok)
    # Sets written without the ledger: verify counts them unchained (as before it existed).
    figure(
        "ledger_unsealed_unchained_sets",
        unsealed.unchained_sets,
        "sets",
        f"== {total}",
        unsealed.ok and unsealed.unchained_sets == total,
    )


if __name__ == "__main__":
    main()
