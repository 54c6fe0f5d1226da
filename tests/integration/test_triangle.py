"""The benchmark triangle's quick variant on the real Neo4j: the report has its structure, and the
three systems consumed byte-identical event streams (each hashed what it consumed)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from benchmarks.triangle.__main__ import execute, public_api_only
from benchmarks.triangle.params import quick_run
from benchmarks.triangle.workload import generate

SYSTEMS = {"transcript", "retrieval", "governed-default"}


def test_quick_triangle_report_and_identical_streams(engine: Any, tmp_path: Path) -> None:
    run = quick_run()
    report = execute(run, tmp_path, "pytest quick", log=lambda _text: None, engine=engine)

    # What the generator produces, hashed here independently of the systems.
    workload = generate(run.workloads[0], run)
    expected = hashlib.sha256(b"".join(e.serialize() for e in workload.events)).hexdigest()

    written = json.loads((tmp_path / "triangle.json").read_text())
    assert written["run"] == "quick"
    assert (tmp_path / "RESULTS.md").read_text().startswith("# Benchmark triangle: quick run")
    assert (tmp_path / "triangle-quick.png").stat().st_size > 10_000
    (w,) = report["workloads"]
    assert set(w["systems"]) >= SYSTEMS
    for name, system in w["systems"].items():
        assert system["events"] == len(workload.events), name
        assert system["stream_sha256"] == expected, name
        checkpoints = [row["seq"] for row in system["accuracy"]]
        assert checkpoints == sorted(workload.probes), name
        assert all(0.0 <= row["accuracy"] <= 1.0 for row in system["accuracy"]), name
        assert system["tokens_per_probe"] > 0, name
    probe_hashes = {s["probes_sha256"] for s in w["systems"].values()}
    assert len(probe_hashes) == 1
    for comparison in w["comparisons"].values():
        assert comparison["streams_identical"] and comparison["probes_identical"]
        assert len(comparison["accuracy_vs_baselines"]) == len(workload.probes)
    governed = w["systems"]["governed-default"]
    finish = governed["finish"]
    assert finish["sets_decided"] >= len(workload.events)
    assert set(finish["halt_categories"]) <= set(finish["engine_stats"]["halts"])
    assert governed["checkpoints"][-1]["resident_breakdown"]
    assert governed["recalls"] > 0  # historical probes walk the ledger and recall through the gate
    assert governed["blast_radius"]["truth"] > 0  # the omitted dependency was revealed
    assert finish["ontology"]["change_outcome"] == "commit"
    metrics = {t["metric"] for t in report["targets"]}
    assert "triangle_event_streams_byte_identical" in metrics
    for target in report["targets"]:
        assert set(target) == {"metric", "value", "unit", "target", "met"}
        assert isinstance(target["met"], bool)
    assert public_api_only() == {"ok": True, "problems": []}
