"""Error observability as rates, against the real Neo4j: a
small boundary built through the gate with one retirement later shown needed, one never
questioned, an invalidation whose at-risk descendants are revalidated, abandoned and left at risk,
a supersession by an entry later invalidated, and a recall; every rate's numerator and
denominator and every detection distance is asserted exactly."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from kg_context.cli.app import app
from kg_context.db.connection import Target
from kg_context.record.invalidation import invalidate
from kg_context.record.observability import Distances, Ratio, rates
from kg_context.residency.recall import admit
from tests.factories import depend_on_retired, entry, moves, proposal


def _committed(decision: Any) -> int:
    assert decision.outcome == "commit", decision
    return int(decision.seq)


def test_error_rates_count_exactly_what_the_graph_shows(
    engine: Any, neo4j_target: Target, boundary_id: str
) -> None:
    b = boundary_id
    boundary = engine.boundary(b)
    empty = rates(boundary)
    assert empty.false_retirement == Ratio(0, 0) and empty.false_retirement.value is None
    assert empty.detection() == Distances(count=0, mean=None, p50=None, max=None)

    commit = boundary.commit
    _committed(commit(proposal(b, entry(key="api", body="REST", id=f"{b}-A"))))
    # seq 2: B supersedes A (executed): a well-formed lie, found out at seq 6
    superseded_at = _committed(
        commit(
            proposal(
                b,
                entry(
                    key="api",
                    body="gRPC",
                    id=f"{b}-B",
                    supersedes=[{"entry_id": f"{b}-A", "reason": "faster"}],
                ),
            )
        )
    )
    plans = [
        entry(
            cls="plan",
            key=f"p{i}",
            body=f"plan {i} on gRPC",
            id=f"{b}-P{i}",
            derived_from=[{"entry_id": f"{b}-B", "essential": True}],
        )
        for i in (1, 2, 3)
    ]
    plans_at = _committed(commit(proposal(b, *plans)))
    scratch = [
        entry(cls="scratch", key="tmp", body="a dead end", id=f"{b}-tmp"),
        entry(cls="scratch", key="tmp2", body="another dead end", id=f"{b}-tmp2"),
    ]
    _committed(commit(proposal(b, *scratch)))
    retire = {"to": "retired", "resident": False, "case": "UNREACHABLE"}
    retired_at = _committed(
        commit(
            moves(
                b,
                "czar-retire",
                "czar",
                {"entry_id": f"{b}-tmp", **retire, "justification": ["no root path"]},
                {"entry_id": f"{b}-tmp2", **retire, "justification": ["no root path"]},
            )
        )
    )
    walked = invalidate(boundary, f"{b}-B", reason="gRPC was never chosen", writer_id="operator")
    invalidated_at = _committed(walked.decision)
    _committed(
        commit(
            moves(b, "reval", "agent", {"entry_id": f"{b}-P1", "to": "revalidated"})
            | {"revalidates": [f"{b}-B"]}
        )
    )
    abandoned = invalidate(boundary, f"{b}-P2", reason="built on gRPC", writer_id="operator")
    abandoned_at = _committed(abandoned.decision)
    # A later set needs the retired scratch entry: halted, approved by the operator.
    needed_at = _committed(depend_on_retired(engine, b, f"{b}-tmp"))
    recalled_at = _committed(admit(boundary, [f"{b}-A"], writer_id="agent-7").decision)
    assert (superseded_at, plans_at, retired_at, invalidated_at) == (2, 3, 5, 6)
    assert (abandoned_at, needed_at, recalled_at) == (8, 9, 10)

    found = rates(boundary)
    # false retirements: tmp (needed at seq 9) of the two retirements at seq 5
    assert found.false_retirement == Ratio(1, 2) and found.false_retirement.value == 0.5
    # supersession candidates: A, superseded at seq 2 by B, which seq 6 invalidated
    assert found.false_supersession == Ratio(1, 1)
    (candidate,) = found.supersession_candidates
    assert (candidate.entry_id, candidate.superseded_by, candidate.superseded_at_seq) == (
        f"{b}-A",
        f"{b}-B",
        2,
    )
    assert (candidate.invalidated_at_seq, candidate.invalidated_by_set) == (
        6,
        walked.decision.set_id,
    )
    # resurrections: of the five entries that left standing (A superseded, tmp and tmp2 retired,
    # B and P2 invalidated), tmp became load-bearing (seq 9) and A was recalled (seq 10)
    assert found.resurrection == Ratio(2, 5)
    assert {(r.entry_id, r.kind, r.seq) for r in found.resurrections} == {
        (f"{b}-tmp", "dependency", 9),
        (f"{b}-A", "recall", 10),
    }
    # at risk: P1 revalidated, P2 abandoned, P3 still at risk
    assert (found.at_risk_revalidated, found.at_risk_abandoned, found.at_risk_open) == (
        Ratio(1, 3),
        Ratio(1, 3),
        Ratio(1, 3),
    )
    # time to detection in sets: B (made at 2, invalidated at 6), P2 (made at 3, at risk at 6),
    # tmp (retired at 5, needed at 9)
    assert sorted(
        (d.kind, d.entry_id, d.mistake_seq, d.detected_seq) for d in found.detections
    ) == [
        ("false_retirement", f"{b}-tmp", 5, 9),
        ("invalidation", f"{b}-B", 2, 6),
        ("invalidation", f"{b}-P2", 3, 6),
    ]
    assert found.detection("invalidation") == Distances(count=2, mean=3.5, p50=3, max=4)
    assert found.detection("false_retirement") == Distances(count=1, mean=4.0, p50=4, max=4)
    assert found.detection() == Distances(count=3, mean=11 / 3, p50=4, max=4)

    # the same figures in stats, the CLI's audit rates and stats --json
    assert boundary.stats().error_rates == found
    env = {
        "NEO4J_URI": neo4j_target.uri,
        "NEO4J_USERNAME": neo4j_target.username,
        "NEO4J_PASSWORD": neo4j_target.password,
        "NEO4J_DATABASE": neo4j_target.database,
    }
    runner = CliRunner()
    shown = runner.invoke(app, ["audit", "rates", "-b", b, "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert data["false_retirement"] == {"numerator": 1, "denominator": 2, "value": 0.5}
    assert data["detection"]["all"] == {"count": 3, "mean": 11 / 3, "p50": 4, "max": 4}
    text = runner.invoke(app, ["audit", "rates", "-b", b], env=env)
    assert text.exit_code == 0 and "false-retirement rate 1/2 (50.0%)" in text.output
    stats = runner.invoke(app, ["stats", b, "--json"], env=env)
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.output)["error_rates"] == data
