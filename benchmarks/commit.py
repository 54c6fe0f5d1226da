"""Governed commit throughput versus a bare UNWIND insert of the same nodes and edges.

The baseline writes exactly the graph the gate writes (sets, entries with their labels and
properties, targets, writers, review and commit receipts, proposal records, every edge, the
status flips of superseded entries, each with the gate's properties and labels, a set's lineage
and dependencies included) with bare UNWIND statements: no reads, no predicates, no lock, no
tokenizer; it does not write the gate's history index lines (one ``IndexEntry`` and its
``INDEXES`` edge per ratified set, since schema 5) nor the ledger's seal on the receipts
(``ledger_*``), so their cost is part of the ratio. The
ratio is what governance costs on top of writing its own record: the gate alone, with the czar's
cadence off (a second figure times the same sets with the default cadence, the czar's compaction
runs included, as an orchestrator on the defaults pays). A second baseline, entries and their
edges only, is printed for scale.

2,000 sets of 5 entries each; in every set one entry supersedes its predecessor in the previous
set (same key) and two entries declare a dependency on the previous set (one DERIVED_FROM, one
soft REQUIRES with a lease). The gate path records the proposals and closes them (set
constructor, every predicate, receipts, proposal records), 500 proposals per locked transaction
through ``Boundary.commit_many``; the baselines use batches of the same size. All run in this
one process against the same server, each path warmed up the same way first; the gate and the
bare write of its graph then run a batch each in turn (A B, B A, ...), so that both meet the
server in the same state, right after one more batch each once the server's replan interval has
passed since the warm-up (``_after_the_replan_interval``: the gate's statements take ~0.9 s to
plan again, and a young store has them planned again on their first run after it).

Then one set at a time, as an orchestrator commits (50 of each untimed first, on boundaries of
their own): 200 ``commit()`` calls against 200 bare write
transactions of the same graph for one set (``bench/commit_bare_full_*``), alternating, on a
boundary with the default czar cadence, the czar running beside the writer as an orchestrator
runs it: a ``kg-context czar watch`` process of its own for the boundary, the writer's engine
scheduling no czar run in its own process (``KG_CONTEXT_RESIDENCY_CZAR_IN_PROCESS=false``):
``commit()`` p50 <= 1.3x the bare transaction's, its p99 <= 3x its p50. The same calls with the
czar on the writer engine's own thread (the default for an engine alone) are timed too and
printed for reading (``*_czar_thread``): its runs share the writer's process and interpreter lock.
The single calls run with the objects alive before them frozen out of Python's cyclic collector
(``harness_frozen``: the 3,500 sets this script generated, every module's objects): a full
collection over them took 25-40 ms, in whichever timed call, ``commit()`` or the bare
transaction, allocated when it was due, and was the single commit's p99 (the full collections
during the timed calls, and the longest, are printed).

Where the time goes (the executor's observer, ``Neo4jExecutor.observe``): for a single
``commit()`` and for a governed batch, the Python outside the transaction (parsing, digests),
the Python inside it (the set constructor and the gate's decision), BEGIN/COMMIT and session,
and each statement's client time and server time (the result summary's
``result_available_after + result_consumed_after``), and the round trips: a table on stderr and
figures on stdout. ``--quick`` runs a tenth of the sets and a quarter of the single commits
(the suite's smoke run: every path and figure once, no ratio that means anything).

The schema is ensured on connect (a fresh store works), the store's counts are printed at start,
and every statement the warm-up ran is EXPLAINed: the run stops if one scans.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    harness_frozen,
    open_engine,
    percentile,
    progress,
    replan_interval_s,
    statements_during,
)
from kg_context.db.text_index import boundary_token
from kg_context.db.timing import UnitTiming
from kg_context.engine import Engine
from kg_context.gate.pure.predicates import HALTS, REJECTS
from kg_context.vocabulary import ReceiptKind

SETS = 2_000
BATCH = 500
# Sets each batch path runs untimed first, three batches each, in turn: a fresh server plans
# and compiles the gate's statements in its first batches (5,039 and 10,168 ms against ~800).
WARMUP = 1_500
SINGLES = 200
REWARM_SINGLES = 50  # untimed, right before the timed ones (two czar runs beside them)
TARGET_RATIO = 1.25  # governed batch over a bare UNWIND write of the same graph
TARGET_SINGLE = 1.3  # single commit() p50 over a bare write transaction of the same set
TARGET_TAIL = 3.0  # single commit() p99 over its p50, the default czar cadence on
MAX_REPLAN_WAIT_S = 60.0  # a longer replan interval is not waited out
WATCH_S = 0.2  # the czar watch process's interval between rounds
ROOT = Path(__file__).resolve().parents[1]


class _Units:
    """The units of work the executor ran on the thread that made this (the czar's thread and
    any other are not a writer's call), collected until ``take``."""

    def __init__(self) -> None:
        self._thread = threading.current_thread().name
        self._units: list[UnitTiming] = []

    def __call__(self, unit: UnitTiming) -> None:
        if unit.thread == self._thread:
            self._units.append(unit)

    def take(self) -> list[UnitTiming]:
        taken, self._units = self._units, []
        return taken


def _parts(total_s: float, units: Iterable[UnitTiming]) -> dict[str, float]:
    """One call's time, in parts (seconds): Python outside its transactions, Python inside them
    (between statements: the decision), BEGIN/COMMIT and session, each statement's client time
    and server time, and the round trips (statements, and one COMMIT per transaction)."""
    units = list(units)
    statements = [st for u in units for st in u.statements]
    parts: dict[str, float] = defaultdict(float)
    parts["total"] = total_s
    parts["python_outside_tx"] = total_s - sum(u.wall_s for u in units)
    parts["python_in_tx"] = sum(u.work_s for u in units) - sum(st.wall_s for st in statements)
    parts["begin_commit_session"] = sum(u.wall_s - u.work_s for u in units)
    parts["round_trips"] = len(statements) + len(units)
    for st in statements:
        name = st.name.replace("/", "_")
        parts[f"{name}_client"] += st.wall_s
        parts[f"{name}_server"] += st.server_s
    return parts


def _breakdown(label: str, calls: list[dict[str, float]], *, per: str) -> dict[str, float]:
    """The median of each part over ``calls`` (``per``: what one call is), as a table on stderr
    and as figures."""
    names = sorted({n for c in calls for n in c}, key=lambda n: (n != "total", n))
    medians = {n: statistics.median(c.get(n, 0.0) for c in calls) for n in names}
    print(f"# where the time goes: {label} (median of {len(calls)}, per {per})", file=sys.stderr)
    total = medians["total"] or 1.0
    for name, value in medians.items():
        if name == "round_trips":
            print(f"#   {name:<44} {value:10.0f}", file=sys.stderr)
        else:
            share = 100 * value / total
            print(f"#   {name:<44} {value * 1000:10.3f} ms {share:6.1f}%", file=sys.stderr)
    for name, value in medians.items():
        if name == "round_trips":
            figure(f"{label}_round_trips", value, "round trips")
        else:
            figure(f"{label}_{name}", value * 1000, "ms")
    return medians


def _proposals(boundary_id: str, seed_ids: list[str]) -> list[dict[str, Any]]:
    proposals = []
    previous = seed_ids
    for i in range(SETS):
        ids = [f"{boundary_id}-s{i}-e{j}" for j in range(5)]
        entries = [
            {
                "id": ids[0],
                "class": "decision",
                "key": "chain",
                "body": f"decision {i}: use plan {i}",
                "supersedes": [{"entry_id": previous[0], "reason": f"revision {i}"}],
            },
            {
                "id": ids[1],
                "class": "plan",
                "key": f"plan-{i}",
                "body": f"plan {i} follows from plan {i - 1}",
                "derived_from": [{"entry_id": previous[1], "essential": True}],
            },
            {
                "id": ids[2],
                "class": "constraint",
                "key": f"constraint-{i}",
                "body": f"constraint {i} keeps the previous constraint in view",
                "requires": [{"entry_id": previous[2], "policy": "soft", "lease_sets": 50}],
            },
            {"id": ids[3], "class": "goal", "key": f"goal-{i}", "body": f"goal {i}"},
            {"id": ids[4], "class": "pin", "key": f"pin-{i}", "body": f"pinned note {i}"},
        ]
        proposals.append(
            {
                "id": f"{boundary_id}-p{i}",
                "boundary_id": boundary_id,
                "writer_id": "bench-writer",
                "writer_kind": "agent",
                "set_id": f"{boundary_id}-set{i}",
                "targets": [f"{boundary_id}-t{i}"],
                "entries": entries,
            }
        )
        previous = ids
    return proposals


def _seed(boundary: Any, boundary_id: str) -> list[str]:
    ids = [f"{boundary_id}-seed-e{j}" for j in range(5)]
    keys = ["chain", "plan-seed", "constraint-seed", "goal-seed", "pin-seed"]
    classes = ["decision", "plan", "constraint", "goal", "pin"]
    boundary.commit(
        {
            "id": f"{boundary_id}-seed",
            "boundary_id": boundary_id,
            "writer_id": "bench-writer",
            "writer_kind": "agent",
            "targets": [f"{boundary_id}-seed"],
            "entries": [
                {"id": i, "class": c, "key": k, "body": f"seed {k}"}
                for i, c, k in zip(ids, classes, keys, strict=True)
            ],
        }
    )
    return ids


def _bare_rows(
    boundary_id: str, proposals: list[dict[str, Any]]
) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    labels = {
        "decision": "Decision",
        "plan": "Plan",
        "constraint": "Constraint",
        "goal": "Goal",
        "pin": "Pin",
    }
    sets, supersedes, derived, requires = [], [], [], []
    prev = f"{boundary_id}-seedset"
    for seq, p in enumerate(proposals, start=1):
        entries = []
        for e in p["entries"]:
            entries.append(
                {
                    "label": labels[e["class"]],
                    "props": {
                        "id": e["id"],
                        "boundary_id": boundary_id,
                        "boundary_token": boundary_token(boundary_id),
                        "embedding_pending": True,
                        "class": e["class"],
                        "key": e["key"],
                        "body": e["body"],
                        "status": "live",
                        "resident": True,
                        "set_seq": seq,
                    },
                }
            )
            supersedes += [
                {"from": e["id"], "to": s["entry_id"], "reason": s["reason"], "seq": seq}
                for s in e.get("supersedes", [])
            ]
            derived += [
                {"from": e["id"], "to": d["entry_id"], "essential": d["essential"]}
                for d in e.get("derived_from", [])
            ]
            requires += [
                {
                    "from": e["id"],
                    "to": r["entry_id"],
                    "policy": r["policy"],
                    "lease_until_seq": seq + r["lease_sets"],
                    "needs": [],
                    "set_seq": seq,
                }
                for r in e.get("requires", [])
            ]
        sets.append(
            {
                "id": p["set_id"],
                "boundary_id": boundary_id,
                "seq": seq,
                "prev_id": prev,
                "entries": entries,
            }
        )
        prev = p["set_id"]
    return sets, supersedes, derived, requires


def _gate_steps(
    engine: Any,
    boundary_id: str,
    sets: int,
    *,
    czar: bool = False,
    units: _Units | None = None,
    calls: list[dict[str, float]] | None = None,
) -> Iterator[float]:
    """The gate path, one batch of ``BATCH`` sets a step: yields each batch's seconds (the
    boundary and its seed are made before the first, untimed). ``czar``: with the engine's czar
    cadence (it runs beside the writer). ``units``/``calls``: each batch's parts."""
    # the gate alone: a boundary with no czar cadence (the czar's compaction is not its record)
    boundary = (
        engine.boundary(boundary_id) if czar else engine.boundary(boundary_id, czar_every_commits=0)
    )
    proposals = _proposals(boundary_id, _seed(boundary, boundary_id))[:sets]
    batches = range(0, sets, BATCH)
    for i in progress(batches, f"gate: {sets} sets", total=len(batches)):
        if units is not None:
            units.take()
        began = time.perf_counter()
        decisions = boundary.commit_many(proposals[i : i + BATCH])
        elapsed = time.perf_counter() - began
        if units is not None and calls is not None:
            calls.append(_parts(elapsed, units.take()))
        assert all(d.outcome == "commit" for d in decisions), decisions[0]
        yield elapsed
    assert czar or boundary.state().seq == sets + 1


def _gate_run(engine: Any, boundary_id: str, sets: int, *, czar: bool = False) -> float:
    """The gate path's seconds for ``sets`` sets; ``czar``: with the engine's czar cadence, its
    runs (beside the writer) waited for at the end, inside the time."""
    elapsed = sum(_gate_steps(engine, boundary_id, sets, czar=czar))
    if czar:
        began = time.perf_counter()
        assert engine.czar_idle(timeout=600)
        elapsed += time.perf_counter() - began
    return elapsed


def _alternate(
    first: Iterator[float], second: Iterator[float], names: tuple[str, str]
) -> tuple[float, float]:
    """Two paths' seconds, run one batch each in turn, the order swapped every round (A B, B A,
    A B, ...): both meet the server in the same state (its JIT still compiling, its page cache
    and plans as the other left them), which one run after the other would not. Each batch's
    time is printed on stderr (``names``: the two paths')."""
    each: list[list[float]] = [[], []]
    steps = [first, second]
    for round_ in itertools.count():
        order = (0, 1) if round_ % 2 == 0 else (1, 0)
        got = [next(steps[k], None) for k in order]
        if got == [None, None]:
            break
        for k, seconds in zip(order, got, strict=True):
            if seconds is None:
                raise AssertionError("the two paths ran a different number of batches")
            each[k].append(seconds)
    for name, times in zip(names, each, strict=True):
        print(f"# {name}, each batch: {', '.join(f'{t * 1000:.0f}' for t in times)} ms",
              file=sys.stderr)  # fmt: skip
    return sum(each[0]), sum(each[1])


def _bare_run(engine: Any, boundary_id: str, sets_count: int) -> float:
    bare = engine.boundary(boundary_id)
    proposals = _proposals(boundary_id, _seed(bare, boundary_id))[:sets_count]
    sets, supersedes, derived, requires = _bare_rows(boundary_id, proposals)
    started = time.perf_counter()
    for i in range(0, sets_count, BATCH):
        chunk = sets[i : i + BATCH]
        ids = {e["props"]["id"] for s in chunk for e in s["entries"]}

        def work(tx: Any, chunk: list[Any] = chunk, ids: set[str] = ids) -> None:
            tx.run("bench/commit_bare_sets", sets=chunk)
            b = boundary_id
            tx.run(
                "bench/commit_bare_supersedes",
                boundary_id=b,
                rows=[r for r in supersedes if r["from"] in ids],
            )
            tx.run(
                "bench/commit_bare_derived",
                boundary_id=b,
                rows=[r for r in derived if r["from"] in ids],
            )
            tx.run(
                "bench/commit_bare_requires",
                boundary_id=b,
                rows=[r for r in requires if r["from"] in ids],
            )

        engine.executor.write_tx(work)
    return time.perf_counter() - started


# The checks a committed set passed (the gate records their names on its receipts).
PREDICATES = [check.__name__ for check in (*REJECTS, *HALTS)]


def _full_rows(
    boundary_id: str, proposals: list[dict[str, Any]], *, batch: int = BATCH, window: int = 16
) -> list[Any]:
    """The nodes and edges the gate writes for these proposals, as bare insert rows: sets with
    their receipts (same fields and labels, but for the ledger's fields: its seal is governance),
    proposal records (verbatim payload), writer, entries (same properties and labels), targets;
    and the entry-to-entry edges with the gate's properties. ``batch``: the sets the gate
    decides in one transaction, ``window``: the constitution's fragment window (a set's lineage,
    as the gate records it: the sets of its batch it descends from within the window)."""
    sets, supersedes, derived, requires = _bare_rows(boundary_id, proposals)
    now = "2026-11-30T00:00:00.000000+00:00"
    for r in requires:
        r.update(lease_sets=r["lease_until_seq"] - r["set_seq"], set_work=r["set_seq"])
    for seq, (row, p) in enumerate(zip(sets, proposals, strict=True), start=1):
        payload = json.dumps(p, sort_keys=True, ensure_ascii=False)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        ids = [e["props"]["id"] for e in row["entries"]]
        common = {
            "at": now, "boundary_id": boundary_id, "set_id": row["id"], "constitution_version": "3",
            "constitution_sha256": digest, "gateway_id": f"gate:{boundary_id}",
            "decision": "commit", "reasons": PREDICATES, "source_writer": ["bench-writer"],
        }  # fmt: skip
        row["props"] = {
            "id": row["id"], "boundary_id": boundary_id, "status": "ratified", "seq": seq,
            "writer_id": "bench-writer", "writer_ids": ["bench-writer"], "summary": "1 proposal(s)",
            "closed_at": now, "kind": "state", "explicit": True, "digest": digest,
            "proposal_ids": [p["id"]], "mode": "governed", "targets": p["targets"],
            "fanout": sum(len(e.get(k, [])) for e in p["entries"]
                          for k in ("supersedes", "derived_from", "requires")),
            "entry_count": len(p["entries"]), "work_seq": seq,
            "lineage": sorted(s["id"] for s in sets[max(seq - window, (seq - 1) // batch * batch):
                                                    seq - 1]),
            "dependencies": sorted(r["entry_id"] for e in p["entries"]
                                   for k in ("supersedes", "derived_from", "requires")
                                   for r in e.get(k, [])),
        }  # fmt: skip
        row["writer"] = {"id": "bench-writer", "kind": "agent"}
        row["receipts"] = [
            {**common, "id": f"{row['id']}/review/1", "kind": "review",
             "family": ReceiptKind.REVIEW.family.value},
            {
                **common, "id": f"{row['id']}/commit", "kind": "commit",
                "family": ReceiptKind.COMMIT.family.value,
                "allowed_effects": [f"create:{i}" for i in ids] + [f"supersede:{ids[0]}"],
                "refused_effects": [], "state_revision": seq, "changed_ids": ids,
                "content_digest": digest, "mode": "governed",
            },
        ]  # fmt: skip
        row["proposal"] = {
            "id": p["id"], "boundary_id": boundary_id, "writer_id": "bench-writer",
            "writer_kind": "agent", "declared_set_id": p["set_id"], "targets": p["targets"],
            "kind": "state", "payload": payload, "digest": digest, "status": "committed",
            "serial": seq, "submitted_at": now, "set_id": row["id"],
        }  # fmt: skip
        for entry in row["entries"]:
            entry["labels"] = [entry["label"], "Live", "Resident"]
            entry["targets"] = p["targets"]
            entry["props"].update(
                tokens=8, set_id=row["id"], expires_after_seq=None, superseded_by_default=False,
                writer_id="bench-writer", proposal_id=p["id"], attributes="{}", created_at=now,
                verse="local", initial_status="live",
            )  # fmt: skip
        # The gate stores a set's lineage and dependencies, and a proposal's targets, only when
        # they are not empty.
        for props, key in ((row["props"], "lineage"), (row["props"], "dependencies"),
                           (row["proposal"], "targets")):  # fmt: skip
            if not props[key]:
                del props[key]
    return [sets, supersedes, derived, requires]


def _bare_full_steps(
    engine: Any,
    boundary_id: str,
    sets_count: int,
    *,
    units: _Units | None = None,
    calls: list[dict[str, float]] | None = None,
) -> Iterator[float]:
    """The bare write of the gate's graph, one batch of ``BATCH`` sets a step: yields each
    batch's seconds (its rows are made before the first, untimed)."""
    bare = engine.boundary(boundary_id)
    proposals = _proposals(boundary_id, _seed(bare, boundary_id))[:sets_count]
    sets, supersedes, derived, requires = _full_rows(boundary_id, proposals)
    for i in range(0, sets_count, BATCH):
        chunk = sets[i : i + BATCH]
        ids = {e["props"]["id"] for s in chunk for e in s["entries"]}

        def work(tx: Any, chunk: list[Any] = chunk, ids: set[str] = ids) -> None:
            tx.run("bench/commit_bare_full_sets", sets=chunk)
            tx.run(
                "bench/commit_bare_full_edges",
                boundary_id=boundary_id,
                supersedes=[r for r in supersedes if r["from"] in ids],
                derived=[r for r in derived if r["from"] in ids],
                requires=[r for r in requires if r["from"] in ids],
            )

        if units is not None:
            units.take()
        began = time.perf_counter()
        engine.executor.write_tx(work)
        elapsed = time.perf_counter() - began
        if units is not None and calls is not None:
            calls.append(_parts(elapsed, units.take()))
        yield elapsed


@contextmanager
def _czar_beside(engine: Engine, boundary_id: str) -> Iterator[None]:
    """``kg-context czar watch`` for ``boundary_id``, a process of its own beside the writer (as
    an orchestrator runs it), entered once its first round is done; on leaving, its cadence runs
    are waited for and it is stopped. Its commits embed nothing, as every engine of the
    benchmarks (``gate_settings``): the writer's tail is the gate's, not the model's."""
    with tempfile.TemporaryFile("w+") as rounds, tempfile.TemporaryFile("w+") as err:
        watch = subprocess.Popen(
            [sys.executable, "-m", "kg_context.cli", "czar", "watch", "--interval",
             str(WATCH_S), "-b", boundary_id, "--json"],
            cwd=ROOT, stdout=rounds, stderr=err, text=True,
            env=dict(os.environ, KG_CONTEXT_EMBEDDING_ON_COMMIT="false"),
        )  # fmt: skip
        pending = True
        try:
            deadline = time.monotonic() + 600
            while watch.poll() is None and time.monotonic() < deadline and not rounds.tell():
                time.sleep(0.05)
                rounds.seek(0, 2)  # its first round printed: connected, and watching
            yield
            while pending and watch.poll() is None and time.monotonic() < deadline:
                row = engine.executor.read("bench/czar_pending", boundary_id=boundary_id)[0]
                pending = row["pending"]
                time.sleep(WATCH_S if pending else 0)
        finally:
            ended = watch.poll() is not None
            watch.terminate()
            watch.wait(timeout=60)
        if ended or pending:
            err.seek(0)
            raise SystemExit(f"the czar watch process did not keep up: {err.read()[-2000:]}")


def _singles(
    engine: Engine,
    run: str,
    units: _Units | None = None,
    *,
    czar_thread: bool = False,
    count: int | None = None,
    pauses: list[float] | None = None,
) -> tuple[list[float], list[float], list[dict[str, float]], list[dict[str, float]]]:
    """``commit()`` of one set at a time against a bare write transaction of the same graph
    for one set, alternating (drift on the server hits both alike), on a boundary with the
    default czar cadence; the czar runs beside the writer: a czar watch process, or with
    ``czar_thread`` the engine's own czar thread (``engine`` must run it). With ``units``, each
    call's parts. Checks that the czar ran on the cadence meanwhile. ``count``: how many of each
    (``SINGLES``). The calls run with the harness's objects frozen (``harness_frozen``); the
    full collections' seconds meanwhile are added to ``pauses``."""
    count = SINGLES if count is None else count
    single = engine.boundary(f"bench-commit-single-{run}")
    singles = _proposals(single.id, _seed(single, single.id))[:count]
    bare = engine.boundary(f"bench-commit-bare-single-{run}")
    rows, supersedes, derived, requires = _full_rows(
        bare.id, _proposals(bare.id, _seed(bare, bare.id))[:count], batch=1
    )
    ours: list[float] = []
    theirs: list[float] = []
    our_parts: list[dict[str, float]] = []
    their_parts: list[dict[str, float]] = []
    with (
        nullcontext() if czar_thread else _czar_beside(engine, single.id),
        harness_frozen() as collections,
    ):
        for proposal, row in zip(singles, rows, strict=True):
            if units is not None:
                units.take()
            started = time.perf_counter()
            single.commit(proposal)
            ours.append(time.perf_counter() - started)
            if units is not None:
                our_parts.append(_parts(ours[-1], units.take()))
            ids = {e["props"]["id"] for e in row["entries"]}

            def work(tx: Any, row: Any = row, ids: set[str] = ids) -> None:
                tx.run("bench/commit_bare_full_sets", sets=[row])
                tx.run(
                    "bench/commit_bare_full_edges",
                    boundary_id=bare.id,
                    supersedes=[r for r in supersedes if r["from"] in ids],
                    derived=[r for r in derived if r["from"] in ids],
                    requires=[r for r in requires if r["from"] in ids],
                )

            started = time.perf_counter()
            engine.executor.write_tx(work)
            theirs.append(time.perf_counter() - started)
            if units is not None:
                their_parts.append(_parts(theirs[-1], units.take()))
    if pauses is not None:
        pauses.extend(collections)
    if czar_thread:
        assert engine.czar_idle(timeout=600)  # the cadence's runs, beside the writer, done
    cadence = single.state().czar_every_commits
    assert cadence, "the boundary records the czar's cadence it was created with"
    reports = engine.executor.read("czar/reports", boundary_id=single.id, since_seq=-1)
    # a run every `cadence` sets at most (its own sets count; the watch claims a round late)
    assert len(reports) >= count // (2 * cadence), "the czar did not run on its cadence"
    return ours, theirs, our_parts, their_parts


def _after_the_replan_interval(engine: Engine, began: float, run: str) -> None:
    """Wait out the server's replan interval since ``began`` (the warm-up's start), then run
    one more batch of each batch path, right before the timed ones. A statement's plan is made
    again on its first run after that interval if the store's statistics moved enough since,
    and on a store the warm-up grew, the gate's three statements are planned again in ~0.9 s
    (a probe's first batch after the store grew: ``open_batch`` 436 ms to its first record,
    ``write_plan`` 384, ``write_sealed`` 111; the next batch 0-20 ms): the timed batches then
    follow plans made seconds before. A longer interval than ``MAX_REPLAN_WAIT_S`` is not
    waited out (a store that never replans keeps the plans it made when it was small)."""
    interval = replan_interval_s(engine)
    if interval > MAX_REPLAN_WAIT_S:
        print(f"# the server keeps its plans {interval:g}s: not waiting that out",
              file=sys.stderr)  # fmt: skip
        return
    wait = max(0.0, interval - (time.monotonic() - began)) + 1.0
    print(f"# waiting {wait:.1f}s: the server's replan interval is {interval:g}s",
          file=sys.stderr)  # fmt: skip
    time.sleep(wait)
    _alternate(
        _gate_steps(engine, f"bench-commit-rewarm-gate-{run}", BATCH),
        _bare_full_steps(engine, f"bench-commit-rewarm-full-{run}", BATCH),
        ("after the replan interval: gate", "after the replan interval: bare write"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sets (smoke run)")
    args = parser.parse_args()
    global SETS, WARMUP, SINGLES
    if args.quick:
        SETS, WARMUP, SINGLES = SETS // 10, WARMUP // 10, SINGLES // 4
    engine, counts = open_engine("commit")  # ensures the schema; counts on stderr
    units = _Units()
    # The single commits' writer: an engine that leaves the czar to the watch process beside it.
    residency = engine.settings.residency.model_copy(update={"czar_in_process": False})
    writer = Engine.connect(
        engine.target,
        settings=dataclasses.replace(engine.settings, residency=residency),
        check_schema=False,
    )
    with engine, writer:
        run = uuid.uuid4().hex[:10]

        # Warm every path the same way (JIT, query plans, page cache) before anything is
        # timed, and check that every statement the warm-up ran seeks by index.
        def warm() -> None:
            _alternate(
                _gate_steps(engine, f"bench-commit-warm-gate-{run}", WARMUP),
                _bare_full_steps(engine, f"bench-commit-warm-full-{run}", WARMUP),
                ("warm-up: gate", "warm-up: bare write of the same graph"),
            )
            _bare_run(engine, f"bench-commit-warm-bare-{run}", BATCH)
            _singles(writer, f"warm-{run}")
            _singles(engine, f"warm-thread-{run}", czar_thread=True)

        began = time.monotonic()
        _, names = statements_during(engine, warm)
        check_plans(engine, names)
        if not args.quick:
            _after_the_replan_interval(engine, began, run)
        engine.executor.observe(units)
        gate_calls: list[dict[str, float]] = []
        bare_calls: list[dict[str, float]] = []
        gate_s, full_s = _alternate(
            _gate_steps(engine, f"bench-commit-gate-{run}", SETS, units=units, calls=gate_calls),
            _bare_full_steps(
                engine, f"bench-commit-full-{run}", SETS, units=units, calls=bare_calls
            ),
            ("gate", "bare write of the same graph"),
        )
        cadence_s = _gate_run(engine, f"bench-commit-cadence-{run}", SETS, czar=True)
        bare_s = _bare_run(engine, f"bench-commit-bare-{run}", SETS)
        engine.executor.observe(None)
        if not args.quick:
            # The batches ran the seconds since the singles' warm-up: their statements (and the
            # czar's beside them) meet a grown store again; a few untimed first, as above.
            _singles(writer, f"rewarm-{run}", count=REWARM_SINGLES)
        writer.executor.observe(units)
        pauses: list[float] = []
        ours, theirs, our_parts, their_parts = _singles(writer, run, units, pauses=pauses)
        writer.executor.observe(None)
        thread_ours, thread_theirs, _, _ = _singles(engine, f"thread-{run}", czar_thread=True)

    ratio = gate_s / full_s
    count_figures(counts)
    figure("gate_sets_per_s", SETS / gate_s, "sets/s")
    figure("bare_unwind_same_graph_sets_per_s", SETS / full_s, "sets/s")
    figure(
        "gate_time_over_bare_insert", ratio, "ratio", f"<= {TARGET_RATIO}", ratio <= TARGET_RATIO
    )
    # The same sets on a boundary with the default czar cadence (25): what an orchestrator on
    # the defaults pays, the czar's compaction runs (beside the writer) waited for at the end.
    figure("gate_with_czar_cadence_over_bare_insert", cadence_s / full_s, "ratio")
    # For scale: a bare insert of the entries and their edges only (no receipts, proposal records,
    # writers or targets): what the gate adds in data as well as in checks.
    figure("bare_unwind_entries_and_edges_only_sets_per_s", SETS / bare_s, "sets/s")
    figure("gate_time_over_bare_entries_and_edges_only", gate_s / bare_s, "ratio")
    # One set at a time, as an orchestrator commits: commit() against a bare write transaction
    # of the same graph for one set, the default czar cadence on.
    p50, p99 = percentile(ours, 50), percentile(ours, 99)
    figure("gate_single_commit_sets_per_s", len(ours) / sum(ours), "sets/s")
    figure("gate_single_commit_p50", p50 * 1000, "ms")
    figure("gate_single_commit_p99", p99 * 1000, "ms")
    figure("bare_single_set_transaction_p50", percentile(theirs, 50) * 1000, "ms")
    # The machine's own tail, for the reading of the one above: the bare transaction's p99.
    figure("bare_single_set_transaction_p99", percentile(theirs, 99) * 1000, "ms")
    bare_tail = percentile(theirs, 99) / percentile(theirs, 50)
    figure("bare_single_set_transaction_p99_over_p50", bare_tail, "ratio")
    figure("gate_single_commit_p99_over_bare_p99", p99 / percentile(theirs, 99), "ratio")
    tail = p99 / p50
    figure(
        "gate_single_commit_p99_over_p50", tail, "ratio", f"<= {TARGET_TAIL}", tail <= TARGET_TAIL
    )
    # The full collections of the writer's process during those calls (the harness frozen).
    figure("single_commits_full_collections", len(pauses), "collections")
    figure("single_commits_full_collection_max", max(pauses, default=0.0) * 1000, "ms")
    single = p50 / percentile(theirs, 50)
    figure(
        "gate_single_commit_over_bare_single_set_p50",
        single,
        "ratio",
        f"<= {TARGET_SINGLE}",
        single <= TARGET_SINGLE,
    )
    # The same, the czar on the writer engine's own thread (its runs share the writer's process
    # and interpreter lock): for reading, the targets are the figures above.
    thread_p50 = percentile(thread_ours, 50)
    figure("gate_single_commit_p50_czar_thread", thread_p50 * 1000, "ms")
    figure("gate_single_commit_p99_czar_thread", percentile(thread_ours, 99) * 1000, "ms")
    figure("gate_single_commit_p99_over_p50_czar_thread",
           percentile(thread_ours, 99) / thread_p50, "ratio")  # fmt: skip
    figure("gate_single_commit_over_bare_single_set_p50_czar_thread",
           thread_p50 / percentile(thread_theirs, 50), "ratio")  # fmt: skip
    figure("bare_single_set_transaction_p99_over_p50_czar_thread",
           percentile(thread_theirs, 99) / percentile(thread_theirs, 50), "ratio")  # fmt: skip
    # Where the time goes: per governed batch of BATCH sets and per bare batch of the same
    # graph, per single commit() and per bare single-set transaction.
    _breakdown("breakdown_gate_batch", gate_calls, per=f"batch of {BATCH} sets")
    _breakdown("breakdown_bare_batch", bare_calls, per=f"batch of {BATCH} sets")
    _breakdown("breakdown_single_commit", our_parts, per="commit()")
    _breakdown("breakdown_bare_single", their_parts, per="transaction")


if __name__ == "__main__":
    main()
