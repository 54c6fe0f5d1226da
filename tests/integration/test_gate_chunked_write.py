"""A batch of more sets than ``write_chunk_sets`` is written in chunks while the gate decides
it (``PlanWriter``): the decisions, the graph, the receipts and the ledger are exactly those of
the same batch written at once.

The same proposals, under the same boundary id and the same clock, go to this suite's server
written in chunks of two sets and to a second server written at once; every node the gate wrote
(properties, labels, relationships) and the boundary's head and counts must be equal. The batch
mixes what the write's order could change: supersessions of entries of the batch, provenance and
residency edges into entries of earlier chunks, a lease renewal into an entry a later set
supersedes, an operator's foundational mark, an operator's transition, a halt and a rejection.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from kg_context.engine import Engine
from tests.factories import entry, proposal

CLOCK = "2026-03-01T12:00:00.000000+00:00"
BOUNDARY_TIMES = {"created_at", "gate_locked_at"}  # each server's own clock


def _seed(b: str) -> list[dict[str, Any]]:
    return [
        proposal(
            b,
            entry("decision", "chain", "decision 0", id=f"{b}-dec0"),
            entry("plan", "plan-0", "plan 0", id=f"{b}-plan0"),
            entry("constraint", "con-0", "constraint 0", id=f"{b}-con0"),
            entry("pin", "pin", "pinned 0", id=f"{b}-pin0"),
            entry("fact", "db", "Postgres", id=f"{b}-fact0", attributes={"source": "t"}),
            entry(
                "constraint",
                "holder",
                "holds the pin",
                id=f"{b}-holder0",
                requires=[{"entry_id": f"{b}-pin0", "policy": "soft", "lease_sets": 3}],
            ),
            set_id=f"{b}-seed",
            pid=f"{b}-seed",
            targets=["seed"],
        )
    ]


def _chain(b: str, i: int) -> dict[str, Any]:
    return proposal(
        b,
        entry(
            "decision",
            "chain",
            f"decision {i}",
            id=f"{b}-dec{i}",
            supersedes=[{"entry_id": f"{b}-dec{i - 1}", "reason": f"revision {i}"}],
        ),
        entry(
            "plan",
            f"plan-{i}",
            f"plan {i}",
            id=f"{b}-plan{i}",
            derived_from=[{"entry_id": f"{b}-plan{i - 1}", "essential": True}],
        ),
        entry(
            "constraint",
            f"con-{i}",
            f"constraint {i}",
            id=f"{b}-con{i}",
            requires=[{"entry_id": f"{b}-con{i - 1}", "policy": "soft", "lease_sets": 50}],
        ),
        set_id=f"{b}-set{i}",
        pid=f"{b}-p{i}",
        targets=[f"t{i}"],
    )


def _batch(b: str) -> list[dict[str, Any]]:
    """Thirteen sets: with chunks of two, every kind of row crosses a chunk."""
    return [
        _chain(b, 1),
        _chain(b, 2),
        # a residency edge into an entry of the first chunk, provenance into the second's
        proposal(
            b,
            entry(
                "goal",
                "reach",
                "reaches back",
                id=f"{b}-reach",
                requires=[{"entry_id": f"{b}-con1", "policy": "soft", "lease_sets": 5}],
                derived_from=[{"entry_id": f"{b}-plan2", "essential": False}],
            ),
            set_id=f"{b}-set-reach",
            pid=f"{b}-p-reach",
            targets=["reach"],
        ),
        # renews the holder's lease on the pin, which a later set of the batch supersedes
        proposal(
            b,
            entry(
                "constraint",
                "renew",
                "renews the pin",
                id=f"{b}-renew",
                requires=[{"entry_id": f"{b}-pin0", "policy": "soft", "lease_sets": 10}],
            ),
            set_id=f"{b}-set-renew",
            pid=f"{b}-p-renew",
            targets=["renew"],
        ),
        _chain(b, 3),
        # halts: supersedes nothing that exists
        proposal(
            b,
            entry(
                "decision",
                "ghost",
                "ghost",
                id=f"{b}-ghost",
                supersedes=[{"entry_id": f"{b}-missing", "reason": "none"}],
            ),
            set_id=f"{b}-set-halt",
            pid=f"{b}-p-halt",
            targets=["halt"],
        ),
        # rejected: depends on nothing that exists
        proposal(
            b,
            entry(
                "plan",
                "dangling",
                "dangling",
                id=f"{b}-dangling",
                derived_from=[{"entry_id": f"{b}-nope", "essential": True}],
            ),
            set_id=f"{b}-set-reject",
            pid=f"{b}-p-reject",
            targets=["reject"],
        ),
        proposal(
            b,
            entry(
                "pin",
                "pin",
                "pinned 1",
                id=f"{b}-pin1",
                supersedes=[{"entry_id": f"{b}-pin0", "reason": "repinned"}],
            ),
            set_id=f"{b}-set-repin",
            pid=f"{b}-p-repin",
            targets=["pin"],
        ),
        proposal(
            b,
            writer_id="operator",
            writer_kind="operator",
            foundational=[f"{b}-con2"],
            entries=[],
            set_id=f"{b}-set-mark",
            pid=f"{b}-p-mark",
            targets=["mark"],
        ),
        {
            "id": f"{b}-p-invalidate",
            "boundary_id": b,
            "writer_id": "operator",
            "writer_kind": "operator",
            "set_id": f"{b}-set-invalidate",
            "targets": ["invalidate"],
            "transitions": [{"entry_id": f"{b}-fact0", "to": "invalidated", "reason": "wrong"}],
        },
        _chain(b, 4),
        _chain(b, 5),
        # a residency edge into the entry marked foundational three chunks before: the mark's
        # renewals are written after every set's edges, so it records this one too
        proposal(
            b,
            entry(
                "goal",
                "late",
                "late",
                id=f"{b}-late",
                requires=[{"entry_id": f"{b}-con2", "policy": "soft", "lease_sets": 5}],
            ),
            set_id=f"{b}-set-late",
            pid=f"{b}-p-late",
            targets=["late"],
        ),
    ]


def _graph(engine: Engine, boundary_id: str) -> dict[str, Any]:
    nodes = {}
    for row in engine.executor.read("tests/boundary_graph", boundary_id=boundary_id):
        props = row["props"]
        if "Receipt" in row["labels"] and props.get("set_id") is None:
            continue  # the founding constitution's, FOR the boundary (opened on each server)
        if "Boundary" in row["labels"]:
            props = {k: v for k, v in props.items() if k not in BOUNDARY_TIMES}
        key = (tuple(sorted(row["labels"])), props.get("id") or props.get("key"))
        out = sorted(
            (r["type"], r["to"], tuple(sorted(r["to_labels"])), sorted(r["props"].items()))
            for r in row["out"]
        )
        assert key not in nodes, key
        nodes[key] = (props, out)
    return nodes


def _write(engine: Engine, boundary_id: str) -> tuple[list[Any], dict[str, Any], Any]:
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    assert [d.outcome for d in boundary.commit_many(_seed(boundary_id))] == ["commit"]
    decisions = boundary.commit_many(_batch(boundary_id))
    state = boundary.state()
    verified = boundary.verify_ledger()
    assert verified.findings == (), verified.findings
    return decisions, _graph(engine, boundary_id), (state, verified.head, verified.records)


@pytest.mark.usefixtures("schema_applied")
def test_a_batch_written_in_chunks_writes_what_one_write_does(
    czar_free_engine: Engine,
    second_engine: Engine,
    boundary_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("kg_context.gate.io.store.now_iso", lambda: CLOCK)
    chunked = czar_free_engine._gate_store
    monkeypatch.setattr(chunked, "_write_chunk_sets", 2)
    before = czar_free_engine.executor.statement_counts().get("gate/write_plan", 0)
    in_chunks = _write(czar_free_engine, boundary_id)
    statements = czar_free_engine.executor.statement_counts()["gate/write_plan"] - before
    assert statements == 1 + 6 + 1  # the seed; six chunks of two, then the last set and the rest

    at_once = _write(second_engine, boundary_id)

    decisions = [(d.outcome, d.set_id, d.seq, d.reason_code) for d in in_chunks[0]]
    assert decisions == [(d.outcome, d.set_id, d.seq, d.reason_code) for d in at_once[0]]
    outcomes = {set_id.removeprefix(f"{boundary_id}-"): o for o, set_id, _, _ in decisions}
    assert outcomes == {
        **{f"set{i}": "commit" for i in range(1, 6)},
        "set-reach": "commit",
        "set-renew": "commit",
        "set-halt": "halt",
        "set-reject": "reject",
        "set-repin": "commit",
        "set-mark": "commit",
        "set-invalidate": "commit",
        "set-late": "commit",
    }
    assert in_chunks[0] == at_once[0]  # receipts ids, seqs, everything a caller gets
    graph, graph_at_once = in_chunks[1], at_once[1]
    assert graph.keys() == graph_at_once.keys()
    assert [k for k, written in graph.items() if written != graph_at_once[k]] == []
    kinds = {labels for labels, _ in graph}
    assert {("LeaseRenewal",), ("Halt", "Open"), ("IndexEntry",)} <= kinds
    renewals = [p for (labels, _), (p, _) in graph.items() if labels == ("LeaseRenewal",)]
    assert {r["kind"] for r in renewals} >= {"live_reference", "foundational"}
    marked = {r["from_id"] for r in renewals if r["kind"] == "foundational"}
    assert f"{boundary_id}-late" in marked
    state, head, records = in_chunks[2]
    state_at_once, head_at_once, records_at_once = at_once[2]
    assert (head, records) == (head_at_once, records_at_once)
    assert replace(state, created_at="") == replace(state_at_once, created_at="")
