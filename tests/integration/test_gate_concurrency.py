"""One committer per boundary across processes: two processes commit 200 sets each at once."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from kg_context.db.connection import Target

ROOT = Path(__file__).resolve().parents[2]
PER_PROCESS = 200


def test_two_processes_commit_400_sets_without_gaps_repeats_or_losses(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    engine.boundary(boundary_id)  # created before the race, so both writers find it
    env = dict(
        os.environ,
        KG_TEST_URI=neo4j_target.uri,
        KG_TEST_USER=neo4j_target.username,
        KG_TEST_PASSWORD=neo4j_target.password,
        KG_TEST_DATABASE=neo4j_target.database,
    )
    writers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.integration.concurrent_writer",
                boundary_id,
                name,
                str(PER_PROCESS),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    outputs = [w.communicate(timeout=600) for w in writers]
    for writer, (_, err) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, err[-2000:]
    lines = [line.split() for out, _ in outputs for line in out.splitlines()]
    assert len(lines) == 2 * PER_PROCESS
    assert all(outcome == "commit" for _, outcome, _ in lines)

    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    seqs = [row["seq"] for row in ledger]
    assert seqs == list(range(1, 2 * PER_PROCESS + 1))  # no gap, no repeat
    assert len({row["set_id"] for row in ledger}) == 2 * PER_PROCESS  # none committed twice
    # every set after the first points back at its predecessor: one unbroken NEXT chain
    for previous, row in itertools.pairwise(ledger):
        assert row["previous_set_id"] == previous["set_id"]
    commit_receipts = [r for row in ledger for r in row["receipts"] if r["kind"] == "commit"]
    assert len(commit_receipts) == 2 * PER_PROCESS
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert (counts["seq"], counts["entries"], counts["proposals"]) == (400, 400, 400)
    # each process's reported seqs are exactly the ledger's for its proposals
    reported = {pid: int(seq) for pid, _, seq in lines}
    assert sorted(reported.values()) == seqs
