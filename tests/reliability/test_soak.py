"""The soak's short variant (issue 15, item 7): ``python -m benchmarks.soak`` for a minute against
the suite's database. Every kind of work ran, nothing failed, every invariant audit over the
soak's boundaries is clean, and the report (JSON and Markdown) is written. The RSS curve and the
latencies are printed, not asserted: flatness is judged by the 30-minute run (``make soak``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kg_context.db.connection import Target
from tests.reliability.servers import ROOT

SECONDS = os.environ.get("KG_TEST_SOAK_SECONDS", "60")


def test_a_short_soak_runs_every_kind_of_work_cleanly(neo4j_target: Target, tmp_path: Path) -> None:
    env = dict(
        os.environ,
        NEO4J_URI=neo4j_target.uri,
        NEO4J_USERNAME=neo4j_target.username,
        NEO4J_PASSWORD=neo4j_target.password,
        PYTHONPATH=str(ROOT),
        HF_HUB_OFFLINE="1",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.soak",
            "--duration",
            SECONDS,
            "--interval",
            "10",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "soak.json").read_text())
    assert report["errors"] == {} and report["audit"]["clean"]
    assert {"commit", "czar", "invalidation", "attention", "window"} <= set(report["totals"])
    assert report["sets_committed"] > 0 and len(report["samples"]) >= 3
    figures = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert {f["metric"] for f in figures} >= {"soak_sets_per_second", "soak_audit_dirty_rows"}
    print("\n" + (tmp_path / "RESULTS.md").read_text().split("## Curves")[0][-1500:])
