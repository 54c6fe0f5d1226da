"""One committer per boundary across processes: concurrent writers (and a czar) on one boundary
queue on its lock, without gaps, repeats, losses or deadlocks."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from kg_context.db.connection import Target
from kg_context.db.executor import DEADLOCK

ROOT = Path(__file__).resolve().parents[2]
PER_PROCESS = 200


def _spawn(neo4j_target: Target, *args: str) -> subprocess.Popen[str]:
    env = dict(
        os.environ,
        KG_TEST_URI=neo4j_target.uri,
        KG_TEST_USER=neo4j_target.username,
        KG_TEST_PASSWORD=neo4j_target.password,
        KG_TEST_DATABASE=neo4j_target.database,
        # The writers' engines run no czar of their own (a czar-free boundary, explicitly): the
        # ledger's seqs are counted exactly, and the czar is the one process that says so.
        KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS="0",
        # Nor do they embed (each process would load the model): the gate's locking is what
        # they exercise; the record's embedding is tests/integration/test_embedding_on_commit.py's.
        KG_CONTEXT_EMBEDDING_ON_COMMIT="false",
    )
    return subprocess.Popen(
        [sys.executable, "-m", "tests.integration.concurrent_writer", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[list[list[str]], dict[str, int]]:
    """The decision lines a process printed, and its retry counts."""
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err[-2000:]
    lines = [line.split(maxsplit=1) for line in out.splitlines()]
    (retries,) = [json.loads(rest) for head, rest in lines if head == "retries"]
    decisions = [
        line.split() for line in out.splitlines() if not line.startswith(("retries", "czar"))
    ]
    return decisions, retries


def _assert_one_unbroken_ledger(engine: Any, boundary_id: str, sets: int) -> list[dict[str, Any]]:
    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    ratified = [row for row in ledger if row["status"] == "ratified"]
    seqs = [row["seq"] for row in ratified]
    assert seqs == list(range(1, sets + 1))  # no gap, no repeat
    assert len({row["set_id"] for row in ratified}) == sets  # none committed twice
    # every set after the first points back at its predecessor: one unbroken NEXT chain
    for previous, row in itertools.pairwise(ratified):
        assert row["previous_set_id"] == previous["set_id"]
    commits = [r for row in ratified for r in row["receipts"] if r["kind"] == "commit"]
    assert len(commits) == sets
    return ratified


def test_two_processes_commit_400_sets_without_gaps_repeats_or_losses(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    # created before the race, so both writers find it; no czar: the test counts writers' seqs
    engine.boundary(boundary_id, czar_every_commits=0)
    writers = [_spawn(neo4j_target, boundary_id, name, str(PER_PROCESS)) for name in ("a", "b")]
    lines = [line for w in writers for line in _finish(w)[0]]
    assert len(lines) == 2 * PER_PROCESS
    assert all(outcome == "commit" for _, outcome, _ in lines)

    ledger = _assert_one_unbroken_ledger(engine, boundary_id, 2 * PER_PROCESS)
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert (counts["seq"], counts["entries"], counts["proposals"]) == (400, 400, 400)
    # each process's reported seqs are exactly the ledger's for its proposals
    reported = {pid: int(seq) for pid, _, seq in lines}
    assert sorted(reported.values()) == [row["seq"] for row in ledger]


def test_three_writers_and_a_czar_on_one_boundary_queue_without_a_single_deadlock(
    engine: Any, neo4j_target: Target, boundary_id: str, tmp_path: Path
) -> None:
    """3 processes x 200 sets on one boundary plus a czar process that
    compacts it meanwhile: every commit queues on the boundary's lock; the executor of every
    process counts its transaction attempts and retries by code, and not one is a deadlock."""
    engine.boundary(boundary_id)
    stop = tmp_path / "stop"
    czar = _spawn(neo4j_target, boundary_id, "czar", str(stop))
    writers = [_spawn(neo4j_target, boundary_id, name, str(PER_PROCESS)) for name in "abc"]
    finished = [_finish(w) for w in writers]
    stop.touch()
    _, czar_retries = _finish(czar)

    lines = [line for decisions, _ in finished for line in decisions]
    assert len(lines) == 3 * PER_PROCESS
    assert all(outcome == "commit" for _, outcome, _ in lines)
    retries = Counter(czar_retries)
    for _, counted in finished:
        retries.update(counted)
    print(f"3 writers x {PER_PROCESS} + czar: {dict(retries)}")
    assert retries[DEADLOCK] == 0, dict(retries)
    assert retries["attempts"] >= retries["units"] > 3 * PER_PROCESS

    seq = engine.boundary(boundary_id).state().seq
    czar_sets = seq - 3 * PER_PROCESS
    assert czar_sets >= 1  # the czar did compact while the writers wrote
    ledger = _assert_one_unbroken_ledger(engine, boundary_id, seq)
    reported = sorted(int(s) for _, _, s in lines)
    writer_seqs = [row["seq"] for row in ledger if row["writer_id"] != "czar"]
    assert reported == writer_seqs
