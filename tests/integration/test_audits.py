"""The audit library on the real database: every file runs, the reports agree with the engine,
and ``kg-context audit all`` is clean on a governed boundary and fails (exit 1, naming the
invariant) on one where a raw write broke an invariant."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kg_context.cli.demo import run_demo
from kg_context.db.catalog import Catalog, default_catalog
from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine
from kg_context.record.audits import audit_library
from tests.cli import cli
from tests.factories import entry, proposal

FIXTURES = Path(__file__).parent / "audit_fixtures"


@pytest.fixture(scope="module")
def demo(engine: Any) -> dict[str, Any]:
    """The demo's session, once for this module."""
    with open(os.devnull, "w") as sink:
        return run_demo(engine, Console(file=sink, width=200))


@pytest.fixture(scope="module")
def ungoverned(neo4j_target: Target) -> Iterator[Engine]:
    with Engine(open_driver(neo4j_target), neo4j_target, catalog=Catalog(FIXTURES)) as raw:
        yield raw


def test_the_demo_runs_the_whole_session_and_its_database_is_clean(
    demo: dict[str, Any], neo4j_target: Target
) -> None:
    assert demo["invariants_clean"]
    assert demo["sets"]["ratified"] >= 30 and demo["halts"] == {
        "SUPERSESSION_TARGET": 1,
        "VERSE_ADOPTION": 1,
    }
    assert all(score is not None for score in demo["attention_scores"].values())
    assert demo["czar"]["retired"] and demo["blast_radius"]["at_risk"]
    assert demo["retention_ratio"] > 1.0
    done = cli(neo4j_target, "audit", "all", "-b", demo["boundary_id"], "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["clean"] and len(report["audits"]) == sum(
        a.must_be_empty for a in audit_library().values()
    )


def test_audit_all_fails_on_a_broken_invariant(
    engine: Any, ungoverned: Engine, neo4j_target: Target, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(id=f"{boundary_id}-old", key="k"), targets=["k"]))
    boundary.commit(
        proposal(
            boundary_id,
            entry(
                id=f"{boundary_id}-new",
                key="k",
                supersedes=[{"entry_id": f"{boundary_id}-old", "reason": "newer"}],
            ),
            targets=["k"],
        )
    )
    clean = cli(neo4j_target, "audit", "all", "-b", boundary_id)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    ungoverned.executor.write("ungoverned/unsupersede", entry_id=f"{boundary_id}-old")
    broken = cli(neo4j_target, "audit", "all", "-b", boundary_id, "--json")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    report = json.loads(broken.stdout)
    failed = {a["audit"] for a in report["audits"] if not a["clean"]}
    assert failed == {"live_superseded", "status_label_drift", "resurrections"}
    single = cli(neo4j_target, "audit", "live-superseded", "-b", boundary_id)
    assert single.returncode == 1 and f"{boundary_id}-old" in single.stdout


def test_every_audit_runs_and_the_reports_agree_with_the_engine(
    engine: Any, demo: dict[str, Any], neo4j_target: Target
) -> None:
    b = demo["boundary_id"]
    boundary = engine.boundary(b, create=False)
    ledger = engine.run_audit("ledger", boundary_id=b).rows
    first_set = ledger[0]["set_id"]
    # A ProposalNode id is <wave id>/<specialist id>.
    wave_id = engine.run_audit("admitted_insights", boundary_id=b).rows[0]["proposal"]
    wave_id = wave_id.split("/")[0]
    params = {
        "boundary_id": b,
        "entry_id": f"{b}/plan-1",
        "set_id": first_set,
        "max_span": 10,
        "proposal_id": f"{b}/p-1",
        "task_id": f"{b}/task-0",
        "wave_id": wave_id,
        "boundary_ids": [b],
        "receipt_id": f"{b}/adoption/none",  # the demo issues no adoption: no row
    }
    reports_with_rows = set()
    for audit in audit_library().values():
        given = {name: params[name] for name in audit.parameter_names if name in params}
        result = engine.run_audit(audit.name, params=given)
        assert result.clean, (audit.name, result.rows[:3])
        if result.rows:
            reports_with_rows.add(audit.name)
    expected = {"attention_wave", "attention_outcomes", "proposal_record", "ledger",
                "supersession_chain", "transitions", "fragmenting_sets", "writers",
                "entry_fingerprint", "resolutions"}  # fmt: skip
    assert expected <= reports_with_rows
    # why_resident (Cypher) and why (the engine) find the same root path.
    for entry_id in (f"{b}/p95", f"{b}/step", f"{b}/db-1"):
        path = boundary.why(entry_id)
        rows = engine.run_audit("why_resident", boundary_id=b, params={"entry_id": entry_id}).rows
        assert bool(rows) == path.held, entry_id
        if rows:
            assert rows[0]["root"] == path.nodes[0].id and rows[0]["hops"] == len(path.edges)
    # retention_over_seq replays the ledger to the gate's running counts.
    last = engine.run_audit("retention_over_seq", boundary_id=b).rows[-1]
    stats = boundary.stats()
    assert (last["committed_tokens"], last["resident_tokens"]) == (
        stats.committed_tokens,
        stats.resident_tokens,
    )
    # blast_radius of the benchmark's set: what the invalidation walked.
    bench_set = next(r["set_id"] for r in ledger if r["set_id"] == f"{b}/s-bench")
    blast = engine.run_audit("blast_radius", boundary_id=b, params={"set_id": bench_set}).rows
    reached = {r["entry_id"]: r["essential"] for r in blast}
    assert reached[f"{b}/db-2"] and reached[f"{b}/plan-2"] and not reached[f"{b}/note"]
    halts = engine.run_audit("halt_metrics", boundary_id=b).rows
    assert {r["reason_code"]: r["open"] for r in halts} == {
        "SUPERSESSION_TARGET": 1,
        "VERSE_ADOPTION": 0,
    }
    # The saved queries for Browser run as shipped, and draw something of the demo.
    browser = default_catalog().under("browser")
    assert len(browser) >= 6
    for query in browser:
        given = {name: params[name] for name in query.params if name in params}
        given.update({"entry_id": f"{b}/p95"} if "entry_id" in query.params else {})
        given.update(
            {name: v for name, v in {"root_classes": ["goal", "constraint", "decision",
             "obligation", "plan", "pin"], "default_lease": 100, "recall_max_entries": 16,
             "recall_max_depth": 2, "successors": True}.items() if name in query.params}
        )  # fmt: skip
        assert engine.executor.read(query.name, **given), query.name
    listed = cli(neo4j_target, "audit", "list", "--json")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == len(audit_library())
