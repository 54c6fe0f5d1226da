"""Crash faults, on a server of the test's own that it kills with SIGKILL.

1. Five kill -9 of the Neo4j server during a commit stream of two writer processes and a czar +
   invalidation process, each restarted with ``kg-context neo4j start``: clients that submit the
   same proposal ids again end with every proposal decided exactly once, no set is partially
   written (the ``partial_sets`` audit, and every committed set's entries and edges checked here
   against what its proposal declared), the ledger is one unbroken chain, and the czar and the
   invalidation walk run again cleanly afterwards.
2. kill -9 of the Python gate process in the middle of its commit transaction: the server rolls
   it back, the boundary's lock is free, another gate decides every proposal exactly once.

Recovery times are printed (``-s``) and asserted nowhere: kill to the next decision a client saw.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kg_context.db.catalog import Catalog
from kg_context.db.connection import open_driver
from kg_context.engine import Engine
from tests.reliability.crash_client import proposal
from tests.reliability.servers import ROOT, KillableServer

FIXTURES = Path(__file__).parent / "fixtures"
# make test kills twice; make reliability five times (the figure)
KILLS = int(os.environ.get("KG_TEST_CRASH_KILLS", "2"))
PER_WRITER = int(os.environ.get("KG_TEST_CRASH_PER_WRITER", "60"))
CZAR_RUN_LEASE_S = 15


@pytest.fixture(scope="module")
def server(killable: KillableServer) -> KillableServer:
    with Engine.connect(killable.target) as engine:  # the schema, applied once
        engine.boundary("crash", czar_every_commits=0)  # the tests count the writers' seqs
        engine.boundary("gate-kill", czar_every_commits=0)
    return killable


def _spawn(server: KillableServer, *args: str) -> subprocess.Popen[str]:
    target = server.target
    env = dict(
        os.environ,
        KG_TEST_URI=target.uri,
        KG_TEST_USER=target.username,
        KG_TEST_PASSWORD=target.password,
        PYTHONPATH=str(ROOT),
        # The crash clients run no czar by themselves (czar-free boundaries, explicitly): the
        # tests count seqs exactly and run the czar themselves after the crashes.
        KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS="0",
        # A czar run the kill cut short still holds its boundary's claim: the upkeep's next run
        # waits for that lease to run out, so it is short here (the default, 10 minutes, would
        # be most of the test's time); one upkeep process is the only czar while it runs.
        KG_CONTEXT_RESIDENCY_CZAR_RUN_LEASE_S=str(CZAR_RUN_LEASE_S),
    )
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.crash_client", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


def _raw(server: KillableServer) -> Engine:
    target = server.target
    return Engine(open_driver(target), target, catalog=Catalog(FIXTURES))


def _check_sets_whole(
    server: KillableServer,
    boundary_id: str,
    prefixes: list[str],
    count: int = PER_WRITER,
    *,
    chained: bool = True,
) -> int:
    """Every committed proposal's set holds both its entries and every edge it declared; a
    proposal not committed left none of them. Returns the number of committed proposals."""
    with _raw(server) as raw:
        rows = raw.executor.read("crash/set_contents", boundary_id=boundary_id)
    by_set = {row["set_id"]: row for row in rows}
    committed = 0
    for prefix in prefixes:
        for i in range(count):
            declared = proposal(boundary_id, prefix, i, chained=chained)
            row = by_set.get(declared["set_id"])
            if row is None or row["status"] != "ratified":
                assert row is None or row["entries"] == [], row
                continue
            committed += 1
            expected = sorted(e["id"] for e in declared["entries"])
            assert sorted(row["entries"]) == expected, row
            fact = f"{prefix}-{i}-f"
            assert sorted(row["edges"]) == sorted(
                [f"DERIVED_FROM:{fact}", f"REQUIRES:{fact}"]
                + ([f"SUPERSEDES:{prefix}-{i}-d"] if chained and i >= 3 else [])
            ), row
    return committed


def test_server_kills_during_a_commit_stream_lose_nothing_and_commit_nothing_twice(
    server: KillableServer, tmp_path: Path
) -> None:
    boundary_id = "crash"
    stop = tmp_path / "stop"
    outputs = {name: tmp_path / f"{name}.out" for name in ("a", "b")}
    handles = {name: path.open("w") for name, path in outputs.items()}
    writers = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.reliability.crash_client",
                "writer",
                boundary_id,
                name,
                str(PER_WRITER),
            ],
            cwd=ROOT,
            env=_spawn_env(server),
            stdout=handles[name],
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in outputs
    }
    upkeep = _spawn(server, "upkeep", boundary_id, str(stop))
    recoveries: list[float] = []
    restarts: list[float] = []
    try:
        for _kill in range(KILLS):
            seen = sum(len(_lines(p)) for p in outputs.values())
            _wait(lambda seen=seen: sum(len(_lines(p)) for p in outputs.values()) >= seen + 8)
            server.kill9()
            killed_at = time.time()
            time.sleep(1.0)
            restarts.append(server.start_with_cli())
            _wait(
                lambda killed_at=killed_at: any(
                    float(line[0]) > killed_at for p in outputs.values() for line in _lines(p)
                )
            )
            recoveries.append(
                min(
                    float(line[0]) - killed_at
                    for p in outputs.values()
                    for line in _lines(p)
                    if float(line[0]) > killed_at
                )
            )
        for name, writer in writers.items():
            _, err = writer.communicate(timeout=900)
            assert writer.returncode == 0, (name, err[-3000:])
    finally:
        stop.touch()
        for writer in writers.values():
            if writer.poll() is None:
                writer.kill()
        for handle in handles.values():
            handle.close()
    out, err = upkeep.communicate(timeout=600)
    assert upkeep.returncode == 0, err[-3000:]
    print(
        f"\n{KILLS} kills: restart (kg-context neo4j start) "
        + ", ".join(f"{t:.1f}s" for t in restarts)
        + "; kill -> next decision "
        + ", ".join(f"{t:.1f}s" for t in recoveries)
        + f"; upkeep: {' '.join(out.split())}"
    )

    decided = {name: _lines(path) for name, path in outputs.items()}
    for name, lines in decided.items():
        assert [line[1] for line in lines] == [f"{name}-{i}" for i in range(PER_WRITER)]
        assert all(line[2] in ("commit", "halt", "reject") for line in lines)
    retried = sum(int(line[4]) > 1 for lines in decided.values() for line in lines)
    assert retried >= KILLS  # the kills did land under the writers' commits

    with Engine.connect(server.target) as engine:
        # exactly once: each proposal is in one set, each set's seq is in the ledger once
        ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
        ratified = [row for row in ledger if row["status"] == "ratified"]
        assert [row["seq"] for row in ratified] == list(range(1, len(ratified) + 1))
        for previous, row in itertools.pairwise(ratified):
            assert row["previous_set_id"] == previous["set_id"]
        reported = sorted(
            int(line[3]) for lines in decided.values() for line in lines if line[2] == "commit"
        )
        writer_seqs = [row["seq"] for row in ratified if row["writer_id"].startswith("writer-")]
        assert reported == writer_seqs
        for lines in decided.values():
            for line in lines:
                recorded = engine.boundary(boundary_id).decision(line[1])
                assert recorded is not None and recorded.outcome == line[2], line
        committed = _check_sets_whole(server, boundary_id, list(outputs))
        assert committed == len(reported)
        # the czar and the invalidation walk run again cleanly after the crashes
        boundary = engine.boundary(boundary_id)
        assert boundary.run_czar() is not None
        window = boundary.window().entries
        decision = next(e.id for e in window if e.id.endswith("-d"))
        radius = boundary.challenge(decision, reason="after the crashes", writer_id="operator")
        assert radius.decision.outcome == "commit", radius.decision
        dirty = [r for r in engine.invariants(boundary_id) if r.rows]
        assert dirty == [], [(r.audit.name, r.rows[:3]) for r in dirty]


def test_kill_9_of_the_gate_process_mid_commit_rolls_back_and_another_gate_decides_once(
    server: KillableServer,
) -> None:
    boundary_id = "gate-kill"
    count = 400
    submitter = _spawn(server, "submit", boundary_id, "g", str(count))
    _, err = submitter.communicate(timeout=600)
    assert submitter.returncode == 0, err[-3000:]

    gate = _spawn(server, "gate-held", boundary_id)
    assert gate.stdout is not None
    assert gate.stdout.readline().strip() == "closing"
    # inside the close transaction, its write run (400 proposals, 800 entries), its commit not sent
    assert gate.stdout.readline().strip() == "written"
    gate.send_signal(signal.SIGKILL)
    killed_at = time.monotonic()
    gate.wait(timeout=60)
    with Engine.connect(server.target) as engine:
        seq_after_kill = engine.boundary(boundary_id).state().seq
        second = _spawn(server, "gate", boundary_id)
        _, err = second.communicate(timeout=600)
        recovered_in = time.monotonic() - killed_at
        assert second.returncode == 0, err[-3000:]
        print(
            f"\ngate kill: seq {seq_after_kill} right after the kill (0: killed mid-commit); "
            f"the second gate decided everything {recovered_in:.1f}s after the kill"
        )
        assert seq_after_kill == 0  # the kill landed inside the transaction: nothing committed
        seq = engine.boundary(boundary_id).state().seq
        assert seq == count
        with _raw(server) as raw:
            pending = raw.executor.read("crash/pending", boundary_id=boundary_id)
        assert pending == [{"pending": 0, "proposals": count}]
        assert _check_sets_whole(server, boundary_id, ["g"], count, chained=False) == count
        dirty = [r for r in engine.invariants(boundary_id) if r.rows]
        assert dirty == [], [(r.audit.name, r.rows[:3]) for r in dirty]


def test_the_partial_sets_audit_sees_a_set_written_in_part(server: KillableServer) -> None:
    """The audit can fail: a raw write takes one entry out of a committed set."""
    with Engine.connect(server.target) as engine:
        boundary = engine.boundary("broken")
        done = boundary.commit(proposal("broken", "x", 0))
        assert done.outcome == "commit"
        assert engine.run_audit("partial_sets", boundary_id="broken").rows == []
        with _raw(server) as raw:
            raw.executor.write("crash/detach_entry", boundary_id="broken", entry_id="x-0-f")
        rows = engine.run_audit("partial_sets", boundary_id="broken").rows
        assert [(r["set_id"], r["problems"]) for r in rows] == [
            ("x-0-set", ["entries differ from the receipt"])
        ]


def _spawn_env(server: KillableServer) -> dict[str, str]:
    target = server.target
    return dict(
        os.environ,
        KG_TEST_URI=target.uri,
        KG_TEST_USER=target.username,
        KG_TEST_PASSWORD=target.password,
        PYTHONPATH=str(ROOT),
    )


def _wait(condition: Any, timeout_s: float = 300.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)
