"""Governed commit throughput versus a bare UNWIND insert of the same nodes and edges.

The baseline writes exactly the graph the gate writes (sets, entries with their labels and
properties, targets, writers, review and commit receipts, proposal records, every edge, the
status flips of superseded entries) with bare UNWIND statements: no reads, no predicates, no
lock, no tokenizer; it does not write the gate's history index lines (one ``IndexEntry`` and its
``INDEXES`` edge per ratified set, since schema 5), so their cost is part of the ratio. The
ratio is what governance costs on top of writing its own record: the gate alone, with the czar's
cadence off (a second figure times the same sets with the default cadence, the czar's compaction
runs included, as an orchestrator on the defaults pays). A second baseline, entries and their
edges only, is printed for scale.

2,000 sets of 5 entries each; in every set one entry supersedes its predecessor in the previous
set (same key) and two entries declare a dependency on the previous set (one DERIVED_FROM, one
soft REQUIRES with a lease). The gate path records the proposals and closes them (set
constructor, every predicate, receipts, proposal records), 500 proposals per locked transaction
through ``Boundary.commit_many``; the baselines use batches of the same size. All run in this
one process against the same server, each path warmed up the same way first.

Then one set at a time, as an orchestrator commits: 200 ``commit()`` calls against 200 bare write
transactions of the same graph for one set (``bench/commit_bare_full_*``), alternating; the
target is ``commit()`` p50 <= 2x the bare transaction's.

The schema is ensured on connect (a fresh store works), the store's counts are printed at start,
and every statement the warm-up ran is EXPLAINed: the run stops if one scans.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from typing import Any

from benchmarks._common import (
    check_plans,
    count_figures,
    figure,
    open_engine,
    percentile,
    progress,
    statements_during,
)
from kg_context.db.text_index import boundary_token
from kg_context.gate.predicates import HALTS, REJECTS

SETS = 2_000
BATCH = 500
WARMUP = 500
SINGLES = 200
TARGET_RATIO = 3.0


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


def _seed(team: Any, boundary_id: str) -> list[str]:
    ids = [f"{boundary_id}-seed-e{j}" for j in range(5)]
    keys = ["chain", "plan-seed", "constraint-seed", "goal-seed", "pin-seed"]
    classes = ["decision", "plan", "constraint", "goal", "pin"]
    team.commit(
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


def _gate_run(engine: Any, boundary_id: str, sets: int, *, czar: bool = False) -> float:
    """The gate path; ``czar``: with the engine's czar cadence (its runs inside the time)."""
    team = engine.boundary(boundary_id)
    if not czar:
        team.after_commit = None  # the gate alone: the czar's compaction is not its record
    proposals = _proposals(boundary_id, _seed(team, boundary_id))[:sets]
    started = time.perf_counter()
    batches = range(0, sets, BATCH)
    for i in progress(batches, f"gate: {sets} sets", total=len(batches)):
        decisions = team.commit_many(proposals[i : i + BATCH])
        assert all(d.outcome == "commit" for d in decisions), decisions[0]
    elapsed = time.perf_counter() - started
    assert czar or team.state()["seq"] == sets + 1
    return elapsed


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


def _full_rows(boundary_id: str, proposals: list[dict[str, Any]]) -> list[Any]:
    """The nodes and edges the gate writes for these proposals, as bare insert rows: sets with
    their receipts (same fields), proposal records (verbatim payload), writer, entries (same
    properties), targets; and the entry-to-entry edges with the gate's properties."""
    sets, supersedes, derived, requires = _bare_rows(boundary_id, proposals)
    now = "2026-11-30T00:00:00.000000+00:00"
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
            "entry_count": len(p["entries"]), "lineage": [],
        }  # fmt: skip
        row["writer"] = {"id": "bench-writer", "kind": "agent"}
        row["receipts"] = [
            {**common, "id": f"{row['id']}/review/1", "kind": "review"},
            {
                **common, "id": f"{row['id']}/commit", "kind": "commit",
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
            entry["targets"] = p["targets"]
            entry["props"].update(
                tokens=8, set_id=row["id"], expires_after_seq=None, superseded_by_default=False,
                writer_id="bench-writer", proposal_id=p["id"], attributes="{}", created_at=now,
                verse="local", initial_status="live",
            )  # fmt: skip
    return [sets, supersedes, derived, requires]


def _bare_full_run(engine: Any, boundary_id: str, sets_count: int) -> float:
    bare = engine.boundary(boundary_id)
    proposals = _proposals(boundary_id, _seed(bare, boundary_id))[:sets_count]
    sets, supersedes, derived, requires = _full_rows(boundary_id, proposals)
    started = time.perf_counter()
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

        engine.executor.write_tx(work)
    return time.perf_counter() - started


def _singles(engine: Any, run: str) -> tuple[list[float], list[float]]:
    """``commit()`` of one set at a time against a bare write transaction of the same graph
    for one set, alternating (drift on the server hits both alike)."""
    single = engine.boundary(f"bench-commit-single-{run}")
    singles = _proposals(single.id, _seed(single, single.id))[:SINGLES]
    bare = engine.boundary(f"bench-commit-bare-single-{run}")
    rows, supersedes, derived, requires = _full_rows(
        bare.id, _proposals(bare.id, _seed(bare, bare.id))[:SINGLES]
    )
    ours: list[float] = []
    theirs: list[float] = []
    for proposal, row in zip(singles, rows, strict=True):
        started = time.perf_counter()
        single.commit(proposal)
        ours.append(time.perf_counter() - started)
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
    return ours, theirs


def main() -> None:
    engine, counts = open_engine("commit")  # ensures the schema; counts on stderr
    with engine:
        run = uuid.uuid4().hex[:10]

        # Warm every path the same way (JIT, query plans, page cache) before anything is
        # timed, and check that every statement the warm-up ran seeks by index.
        def warm() -> None:
            _gate_run(engine, f"bench-commit-warm-gate-{run}", WARMUP)
            _bare_run(engine, f"bench-commit-warm-bare-{run}", WARMUP)
            _bare_full_run(engine, f"bench-commit-warm-full-{run}", WARMUP)
            _singles(engine, f"warm-{run}")

        _, names = statements_during(engine, warm)
        check_plans(engine, names)
        gate_s = _gate_run(engine, f"bench-commit-gate-{run}", SETS)
        cadence_s = _gate_run(engine, f"bench-commit-cadence-{run}", SETS, czar=True)
        full_s = _bare_full_run(engine, f"bench-commit-full-{run}", SETS)
        bare_s = _bare_run(engine, f"bench-commit-bare-{run}", SETS)
        ours, theirs = _singles(engine, run)

    ratio = gate_s / full_s
    count_figures(counts)
    figure("gate_sets_per_s", SETS / gate_s, "sets/s")
    figure("bare_unwind_same_graph_sets_per_s", SETS / full_s, "sets/s")
    figure(
        "gate_time_over_bare_insert", ratio, "ratio", f"<= {TARGET_RATIO}", ratio <= TARGET_RATIO
    )
    # The same sets with the engine's czar cadence (KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS, 25 by
    # default): what an orchestrator on the defaults pays, the czar's compaction runs included.
    figure("gate_with_czar_cadence_over_bare_insert", cadence_s / full_s, "ratio")
    # For scale: a bare insert of the entries and their edges only (no receipts, proposal records,
    # writers or targets): what the gate adds in data as well as in checks.
    figure("bare_unwind_entries_and_edges_only_sets_per_s", SETS / bare_s, "sets/s")
    figure("gate_time_over_bare_entries_and_edges_only", gate_s / bare_s, "ratio")
    # One set at a time, as an orchestrator commits: commit() against a bare write transaction
    # of the same graph for one set.
    figure("gate_single_commit_sets_per_s", len(ours) / sum(ours), "sets/s")
    figure("gate_single_commit_p50", percentile(ours, 50) * 1000, "ms")
    figure("gate_single_commit_p99", percentile(ours, 99) * 1000, "ms")
    figure("bare_single_set_transaction_p50", percentile(theirs, 50) * 1000, "ms")
    single = percentile(ours, 50) / percentile(theirs, 50)
    figure("gate_single_commit_over_bare_single_set_p50", single, "ratio", "<= 2.0", single <= 2)


if __name__ == "__main__":
    main()
