"""Residency and the czar against the real Neo4j: reachability from roots, leases, the
czar's compaction sets through the gate, interfaces, the record that never forgets, recall, the
window and the metrics."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from kg_context.cli.app import app
from kg_context.gate.pure.constitution import load_constitution
from kg_context.record.search import embed_pending, search_record
from kg_context.residency.czar import run_czar
from kg_context.residency.metrics import stats
from kg_context.residency.reachability import reachable, why
from kg_context.residency.recall import admit, recall
from kg_context.residency.window import window
from kg_context.settings import ResidencySettings
from tests.factories import DEFAULT_VERSION, constitution_variant, entry, proposal

DEFAULT = load_constitution()


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _fact(key: str, body: str, **extra: Any) -> dict[str, Any]:
    attributes = {"source": "test", **extra.pop("attributes", {})}
    return entry(cls="fact", key=key, body=body, attributes=attributes, **extra)


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any], **kw: Any) -> Any:
    decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"], **kw))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


# Two czar identities (each leaves what it wrote to the other): the constitution names both.
TWO_CZARS = constitution_variant(
    f"{DEFAULT_VERSION}-two-czars", ('czars = ["czar"]', 'czars = ["czar", "czar-b"]')
)


def _settle(boundary: Any) -> None:
    """Run two czar identities until neither has anything to propose (each leaves what it wrote
    to the other: independence)."""
    for _ in range(6):
        reports = [run_czar(boundary), run_czar(boundary, czar_id="czar-b")]
        for report in reports:
            assert report.committed, report.summary()
        if all(not r.decisions for r in reports):
            return
    raise AssertionError("the czars did not settle")


def test_record_search_finds_entries_tagged_with_set_status_and_superseder(
    embedding_engine: Any, boundary_id: str
) -> None:
    engine = embedding_engine
    boundary = engine.boundary(boundary_id)
    a, b = f"{boundary_id}-a", f"{boundary_id}-b"
    _commit(boundary, boundary_id, entry(key="db", body="Use Postgres for the ledger", id=a))
    _commit(
        boundary,
        boundary_id,
        entry(
            key="db",
            body="Use Neo4j for the ledger",
            id=b,
            supersedes=[{"entry_id": a, "reason": "graph"}],
        ),
    )
    assert embed_pending(boundary) == 0  # each commit embedded what it wrote
    hits = {h.entry_id: h for h in search_record(boundary, "Postgres ledger")}
    assert hits[a].status == "superseded" and hits[a].superseded_by == b
    assert hits[a].matched_by == "both" and hits[a].set_seq == 1 and not hits[a].resident
    assert hits[a].tag() == f"matched in set 1, superseded, superseded by {b}"
    assert next(iter(hits)) == a  # the fulltext match ranks first
    other = engine.boundary(f"{boundary_id}-other")  # another boundary sees none of it
    assert {h.entry_id for h in search_record(other, "ledger")} == set()


def test_soft_edge_unrenewed_retires_hard_edge_never_and_interface_keeps_needs(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    goal, soft_fact, hard_fact, dec = (f"{boundary_id}-{n}" for n in ("g", "fs", "fh", "d"))
    _commit(boundary, boundary_id, entry(cls="goal", key="ship", body="Ship v1", id=goal))
    _commit(
        boundary,
        boundary_id,
        _fact(
            "owner", "Alice owns billing; 3 services", id=soft_fact, attributes={"boundary": "pay"}
        ),
        _fact("sla", "99.9% monthly", id=hard_fact),
        entry(
            key="billing",
            body="Billing stays on Postgres",
            id=dec,
            requires=[
                {
                    "entry_id": soft_fact,
                    "policy": "soft",
                    "lease_sets": 2,
                    "needs": ["boundary", "key"],
                },
                {"entry_id": hard_fact, "policy": "hard"},
            ],
        ),
    )
    assert run_czar(boundary).decisions == ()  # everything is reachable: nothing to compact
    assert why(boundary, soft_fact).held
    for i in range(3):  # three sets later the soft lease (2 sets) has run out
        _commit(boundary, boundary_id, entry(cls="goal", key=f"filler-{i}", body="more work"))

    report = run_czar(boundary)
    assert report.committed
    summary = report.summary()
    assert summary["retired"] == [soft_fact]
    assert summary["expired_leases"] == 1
    entries = _entries(engine, boundary_id)
    assert (entries[soft_fact]["status"], entries[soft_fact]["resident"]) == ("retired", False)
    assert (entries[hard_fact]["status"], entries[hard_fact]["resident"]) == ("live", True)
    hard_path = why(boundary, hard_fact)
    assert [n.id for n in hard_path.nodes] == [dec, hard_fact]
    assert "hard" in hard_path.render()

    interface_id = f"{soft_fact}/interface"
    assert summary["interfaces"] == [interface_id]
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    interface = next(r for r in rows if r["id"] == interface_id)
    assert interface["class"] == "interface" and interface["resident"] is True
    detail = engine.executor.read("recall/entries", ids=[interface_id], boundary_id=boundary_id)
    assert detail[0]["body"] == "boundary: pay\nkey: owner"
    links = engine.executor.read(
        "residency/interface_holders",
        boundary_id=boundary_id,
        entry_id=interface_id,
        standing=["live"],
    )
    assert [(r["held_id"], r["holder_id"]) for r in links] == [(soft_fact, dec)]
    props = window(boundary)
    shown = {e.id: e for e in props.entries}
    assert interface_id in shown and soft_fact not in shown
    path = why(boundary, interface_id)
    assert path.via_interface_holder == dec and path.held
    # the transition's justification names the exact expired edge
    justification = engine.executor.read("audits/transitions", boundary_id=boundary_id)
    retired = [t for t in justification if t.get("entry_id") == soft_fact]
    assert retired and any("lease_until_seq" in j for j in retired[0]["justification"])
    # settled: a second run proposes nothing
    assert run_czar(boundary).decisions == ()


def test_a_newer_reference_renews_a_lease(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    fact, d1, d2 = (f"{boundary_id}-{n}" for n in ("f", "d1", "d2"))
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 2}
    _commit(boundary, boundary_id, _fact("f", "a fact", id=fact))
    _commit(boundary, boundary_id, entry(key="x", body="first use", id=d1, requires=[soft]))
    _commit(boundary, boundary_id, entry(cls="goal", key="g", body="filler"))
    _commit(boundary, boundary_id, entry(key="y", body="renewed use", id=d2, requires=[soft]))
    _commit(boundary, boundary_id, entry(cls="goal", key="g2", body="filler"))
    # d1's lease (to work seq 4) was renewed by d2's live reference at seq 4 (to work seq 6):
    # at seq 5 both hold the fact, and d1's edge names its renewal
    reach = reachable(boundary)
    assert reach.seq == 5 and fact in reach.reached
    path = why(boundary, fact)
    assert [n.id for n in path.nodes] == [d1, fact]
    assert (path.edges[-1].lease_until, path.edges[-1].renewed_by) == (6, d2)
    assert run_czar(boundary).decisions == ()


def test_czar_leaves_what_a_standing_entry_holds_by_a_hard_edge_and_the_gate_halts_it(
    engine: Any, boundary_id: str
) -> None:
    """The czar plans around a hold (the held entry stays in the window, nothing halts); a czar
    set that would retire it anyway halts HARD_DEPENDENCY at the gate."""
    boundary = engine.boundary(boundary_id)
    base, holder = f"{boundary_id}-base", f"{boundary_id}-holder"
    _commit(boundary, boundary_id, _fact("base", "the base", id=base))
    _commit(
        boundary,
        boundary_id,
        _fact("holder", "needs the base", id=holder, requires=[{"entry_id": base}]),
    )
    # an operator takes the holder out of the window; it stays live, still holding base (hard)
    _commit(
        boundary,
        boundary_id,
        writer_id="operator",
        writer_kind="operator",
        transitions=[{"entry_id": holder, "resident": False, "reason": "not needed now"}],
    )
    report = run_czar(boundary)
    assert report.plan.held == [base] and report.decisions == ()
    forced = boundary.commit(
        {
            "id": f"{boundary_id}-retire-held",
            "boundary_id": boundary_id,
            "writer_id": "czar",
            "writer_kind": "czar",
            "kind": "compaction",
            "targets": ["t"],
            "transitions": [
                {
                    "entry_id": base,
                    "to": "retired",
                    "resident": False,
                    "reason": "unreachable from roots",
                    "case": "UNREACHABLE",
                }
            ],
        }
    )
    assert (forced.outcome, forced.reason_code) == ("halt", "HARD_DEPENDENCY")
    assert holder in (forced.detail or "")
    entries = _entries(engine, boundary_id)
    assert (entries[base]["status"], entries[base]["resident"]) == ("live", True)


def test_a_case_the_czar_cannot_decide_halts_once_and_the_operator_decides_it(
    engine: Any, boundary_id: str
) -> None:
    """A supersession declared across keys and recorded unexecuted (an append-only boundary) is
    not a pre-authorized case: the czar proposes it as its own set, the gate halts it
    (UNCLEAR_COMPACTION), mechanical work is not blocked, and a rerun finds the same halt."""
    rules = constitution_variant(
        f"ao-{boundary_id[-12:]}", ("append_only_below = 0", "append_only_below = 50")
    )
    boundary = engine.boundary(boundary_id, task_horizon=10, constitution=rules)
    old, new = f"{boundary_id}-old", f"{boundary_id}-new"
    goal = entry(cls="goal", key="g", body="ship", id=f"{boundary_id}-goal")
    _commit(boundary, boundary_id, goal, entry(key="db", body="postgres", id=old))
    declared = boundary.commit(
        proposal(
            boundary_id,
            entry(
                key="storage",
                body="neo4j",
                id=new,
                supersedes=[{"entry_id": old, "reason": "moved"}],
            ),
        )
    )
    assert declared.outcome == "commit"  # append-only: recorded, not executed
    report = run_czar(boundary)
    halted = [d for d in report.decisions if d.outcome == "halt"]
    assert [d.reason_code for d in halted] == ["UNCLEAR_COMPACTION"]
    assert old in (halted[0].detail or "")
    assert _entries(engine, boundary_id)[old]["status"] == "live"  # undecided: nothing moved
    again = run_czar(boundary)
    assert [d.halt_id for d in again.decisions if d.outcome == "halt"] == [halted[0].halt_id]
    resolved = engine.halts.resolve(
        halted[0].halt_id, "approve", operator_id="operator", reason="the old decision is gone"
    )
    assert resolved.decision is not None and resolved.decision.outcome == "commit"
    assert _entries(engine, boundary_id)[old]["status"] == "retired"


def test_300_set_session_every_resident_entry_has_a_root_path_and_nothing_is_lost(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id, constitution=TWO_CZARS, czar_every_commits=25)
    committed_entries = 0
    record_sizes: list[int] = []
    latest: dict[str, str] = {}
    _commit(boundary, boundary_id, entry(cls="goal", key="mission", body="Run the session"))
    committed_entries += 1
    for i in range(1, 300):
        fid = f"{boundary_id}-f{i}"
        entries = [_fact(f"fact-{i % 17}", f"observation {i}", id=fid)]
        if i % 3 == 0:
            key = f"dec-{i % 7}"
            requires: list[dict[str, Any]] = [
                {"entry_id": fid, "policy": "soft", "lease_sets": 4, "needs": ["body"]}
            ]
            prev_fact = f"{boundary_id}-f{i - 1}"
            requires.append({"entry_id": prev_fact, "policy": "hard"})
            supersedes = [{"entry_id": latest[key], "reason": "newer"}] if key in latest else []
            did = f"{boundary_id}-d{i}"
            entries.append(
                entry(
                    key=key, body=f"decision {i}", id=did, requires=requires, supersedes=supersedes
                )
            )
            latest[key] = did
        if i % 11 == 0:
            entries.append(entry(cls="open_question", key=f"q{i}", body="open?", expires_after=4))
        if i % 17 == 0:
            entries.append(
                entry(
                    cls="open_question",
                    key="status-q",
                    body=f"where are we at {i}?",
                    superseded_by_default=True,
                )
            )
        if i % 13 == 0:
            entries.append(
                entry(cls="scratch", key=f"try-{i}", body="dead end", attributes={"explored": True})
            )
        decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"s{i}"]))
        assert engine.czar_idle(timeout=120)  # the cadence's run done before the next set
        if decision.outcome != "commit":
            # a prior decision of this key was retired by the czar or hard-held: state it
            raise AssertionError((i, decision.reason_code, decision.detail))
        committed_entries += len(entries)
        if i % 50 == 0:
            record_sizes.append(stats(boundary).record_entries)
    assert engine.czar_idle(timeout=120) and not engine.czar_failures
    _settle(boundary)

    current = stats(boundary)
    record_sizes.append(current.record_entries)
    assert record_sizes == sorted(record_sizes)  # the record only grows
    interfaces = {
        e["id"] for e in _entries(engine, boundary_id).values() if e["class"] == "interface"
    }
    assert current.record_entries == committed_entries + len(interfaces)  # nothing deleted
    assert interfaces  # soft leases ran out under live decisions: interfaces were built
    drift = engine.executor.read(
        "audits/status_label_drift",
        boundary_id=boundary_id,
    )
    assert drift == []  # Browser labels followed every supersession and retirement
    assert current.sets.get("ratified", 0) >= 300
    entries = _entries(engine, boundary_id)
    resident = [e for e in entries.values() if e["resident"]]
    assert resident
    assert not [e for e in entries.values() if e["status"] == "superseded" and e["resident"]]
    assert not [e for e in entries.values() if e["status"] == "explored" and e["resident"]]
    for e in resident:
        path = why(boundary, e["id"])
        assert path.held, path.render()
    assert current.resident_tokens == current.resident_tokens_recomputed
    assert current.retention_ratio is not None and current.retention_ratio > 1.0
    reasons = {
        t["reason"]
        for t in engine.executor.read("audits/transitions", boundary_id=boundary_id)
        if t["writer_id"] in ("czar", "czar-b")
    }
    assert {
        "unreachable from roots",
        "lease expired and unreachable from roots",
        "superseded by default",
    } <= reasons
    status_questions = [e for e in entries.values() if e["key"] == "status-q"]
    assert [e["resident"] for e in status_questions].count(True) == 1  # only the newest
    assert current.resident_entries < current.record_entries / 2


def test_recalled_entry_is_tagged_used_once_and_stays_if_promoted(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    old, new, dep = (f"{boundary_id}-{n}" for n in ("old", "new", "dep"))
    _commit(boundary, boundary_id, entry(cls="goal", key="g", body="keep going"))
    _commit(boundary, boundary_id, _fact("cost", "Postgres license costs nothing", id=dep))
    _commit(
        boundary,
        boundary_id,
        entry(key="db", body="Use Postgres for billing", id=old, requires=[{"entry_id": dep}]),
    )
    _commit(
        boundary,
        boundary_id,
        entry(
            key="db", body="Use Neo4j", id=new, supersedes=[{"entry_id": old, "reason": "graph"}]
        ),
    )
    hits = recall(boundary, "Postgres billing")
    hit = next(h for h in hits if h.entry_id == old)
    assert hit.tag() == f"matched in set 3, superseded, superseded by {new}"

    # admit with a cap of one entry: the dependency is cut and reported
    capped = admit(boundary, [old], writer_id="agent-1", max_entries=1)
    assert capped.decision.outcome == "commit"
    assert capped.cut == (dep,)
    copy = capped.copies[old]
    shown = {e.id: e for e in window(boundary).entries}
    assert shown[copy].tag == f"live; recalled: {hit.tag()}; one use"
    assert old not in shown
    # one use: the next committed work set, which retires the copy in its own transaction
    _commit(boundary, boundary_id, entry(cls="goal", key="g2", body="used the recall"))
    assert copy not in {e.id for e in window(boundary).entries}
    assert _entries(engine, boundary_id)[copy]["status"] == "retired"
    assert copy not in {t.entry_id for t in run_czar(boundary).plan.transitions}  # nothing left

    # admitted again (with its dependency) and promoted by a committed entry: it stays
    again = admit(boundary, [old], writer_id="agent-1")
    assert again.cut == () and set(again.copies) == {old, dep}
    promoted = again.copies[old]
    _commit(
        boundary,
        boundary_id,
        entry(
            key="db-history",
            body="why we left Postgres",
            id=f"{boundary_id}-hist",
            requires=[{"entry_id": promoted}],
        ),
    )
    _commit(boundary, boundary_id, entry(cls="goal", key="g3", body="later"))
    run_czar(boundary)
    shown_now = {e.id: e for e in window(boundary).entries}
    assert promoted in shown_now and again.copies[dep] in shown_now  # held through the copied edge
    # The window says so: the promoted copies' "one use" is over (the triangle's finding).
    holder = f"{boundary_id}-hist"
    assert shown_now[promoted].tag.endswith(f"; promoted by {holder}")
    assert shown_now[again.copies[dep]].tag.endswith(f"; promoted by {holder}")
    assert "one use" not in shown_now[promoted].tag
    assert why(boundary, promoted).held


def test_over_declaration_trips_density_before_the_window_grows_past_the_limit(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    ids: list[str] = []
    halted = None
    for i in range(60):
        eid = f"{boundary_id}-e{i}"
        decision = boundary.commit(
            proposal(
                boundary_id,
                entry(
                    key=f"k{i}", body=f"entry {i}", id=eid, requires=[{"entry_id": x} for x in ids]
                ),
                targets=[f"t{i}"],
            )
        )
        if decision.outcome != "commit":
            halted = decision
            break
        ids.append(eid)
    assert halted is not None and halted.reason_code == "DENSITY"
    resident = window(boundary).entries
    assert len(resident) < DEFAULT.density.ratio_floor_entries
    assert stats(boundary).halts == {"DENSITY": 1}


def test_explored_entries_land_in_the_record_at_zero_window_cost(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    _commit(boundary, boundary_id, entry(cls="goal", key="g", body="goal"))
    before = stats(boundary)
    dead = f"{boundary_id}-dead"
    _commit(
        boundary,
        boundary_id,
        entry(
            cls="scratch",
            key="try",
            body="a failed attempt",
            id=dead,
            attributes={"explored": True},
        ),
    )
    after = stats(boundary)
    assert after.resident_tokens == before.resident_tokens
    assert after.committed_tokens > before.committed_tokens
    assert after.record_entries == before.record_entries + 1
    e = _entries(engine, boundary_id)[dead]
    assert (e["status"], e["resident"]) == ("explored", False)
    assert run_czar(boundary).decisions == ()


def test_window_stats_and_cli(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    goal, dec = f"{boundary_id}-g", f"{boundary_id}-d"
    _commit(boundary, boundary_id, entry(cls="goal", key="ship", body="Ship v1", id=goal))
    _commit(
        boundary,
        boundary_id,
        entry(key="db", body="Neo4j", id=dec),
        entry(cls="constraint", key="lat", body="p99 < 50 ms"),
    )
    current = window(boundary)
    assert [c for c, _ in current.groups()] == ["decision", "constraint", "goal"]
    assert current.total_tokens == stats(boundary).resident_tokens
    assert current.render().splitlines()[0].endswith(f"3 entries, {current.total_tokens} tokens")

    runner = CliRunner()
    shown = runner.invoke(app, ["window", boundary_id, "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["total_tokens"] == current.total_tokens
    path = runner.invoke(app, ["why", dec, "-b", boundary_id])
    assert path.exit_code == 0 and "decision root" in path.output
    numbers = runner.invoke(app, ["stats", boundary_id, "--json"])
    data = json.loads(numbers.output)
    assert data["retention_ratio"] == data["committed_tokens"] / data["resident_tokens"]
    czar = runner.invoke(app, ["czar", "run", boundary_id, "--json"])
    assert czar.exit_code == 0 and json.loads(czar.output)["decisions"] == []


def test_default_lease_applies_to_soft_edges_without_one(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    fact = f"{boundary_id}-f"
    _commit(boundary, boundary_id, _fact("f", "fact", id=fact))
    _commit(
        boundary,
        boundary_id,
        entry(key="d", body="d", requires=[{"entry_id": fact, "policy": "soft"}]),
    )
    _commit(boundary, boundary_id, entry(cls="goal", key="g", body="filler"))
    _commit(boundary, boundary_id, entry(cls="goal", key="g2", body="filler"))
    # the edge is from seq 2: a default lease of 1 set ends at seq 3; now it is seq 4
    short = ResidencySettings(default_lease_sets=1)
    assert fact not in reachable(boundary, settings=short).reached
    assert fact in reachable(boundary).reached


def test_the_gate_rejects_a_czar_compacting_what_it_wrote(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    _commit(boundary, boundary_id, entry(cls="goal", key="g", body="goal"))
    own = f"{boundary_id}-own"
    boundary.commit(
        proposal(
            boundary_id,
            entry(cls="scratch", key="note", body="czar note", id=own),
            writer_id="czar",
            writer_kind="czar",
        )
    )
    decision = boundary.commit(
        proposal(
            boundary_id,
            writer_id="czar",
            writer_kind="czar",
            entries=[],
            transitions=[{"entry_id": own, "to": "retired", "resident": False, "reason": "x"}],
            kind="compaction",
        )
    )
    assert (decision.outcome, decision.reason_code) == ("reject", "CZAR_INDEPENDENCE")
    report = run_czar(boundary)  # the czar itself leaves its own entry to another writer
    assert own in report.plan.skipped_own and own not in report.summary()["retired"]


def test_an_interface_follows_its_sources_out_of_the_window_with_one_czar(
    engine: Any, boundary_id: str
) -> None:
    """The czar never judges its own work, but its interfaces are projections: when the
    decision that held one through a soft edge is superseded, the same czar retires the interface
    as unreachable (the gate re-checks the case against the graph) and every audit stays empty."""
    boundary = engine.boundary(boundary_id)
    soft_fact, dec, dec2 = (f"{boundary_id}-{n}" for n in ("fs", "d", "d2"))
    _commit(boundary, boundary_id, entry(cls="goal", key="ship", body="Ship v1"))
    _commit(
        boundary,
        boundary_id,
        _fact("owner", "Alice owns billing", id=soft_fact, attributes={"boundary": "pay"}),
        entry(
            key="billing",
            body="Billing stays on Postgres",
            id=dec,
            requires=[
                {"entry_id": soft_fact, "policy": "soft", "lease_sets": 1, "needs": ["boundary"]}
            ],
        ),
    )
    for i in range(2):
        _commit(boundary, boundary_id, entry(cls="goal", key=f"filler-{i}", body="more work"))
    interface_id = f"{soft_fact}/interface"
    assert run_czar(boundary).summary()["interfaces"] == [interface_id]
    assert _entries(engine, boundary_id)[interface_id]["resident"] is True
    assert run_czar(boundary).decisions == ()  # held by the live decision: it stays

    _commit(
        boundary,
        boundary_id,
        entry(
            key="billing",
            body="Billing moves to Neo4j",
            id=dec2,
            supersedes=[{"entry_id": dec, "reason": "graph"}],
        ),
    )
    retired: list[str] = []
    for _ in range(3):
        report = run_czar(boundary)
        assert report.committed, report.summary()
        retired += report.summary()["retired"]
        assert interface_id not in report.plan.skipped_own
        if not report.decisions:
            break
    assert interface_id in retired
    row = _entries(engine, boundary_id)[interface_id]
    assert (row["status"], row["resident"]) == ("retired", False)
    moves = [
        t
        for t in engine.executor.read("audits/transitions", boundary_id=boundary_id)
        if t.get("entry_id") == interface_id
    ]
    assert [t["case"] for t in moves] == ["UNREACHABLE"]
    assert engine.run_audit("czar_independence", boundary_id=boundary_id).rows == []
    for name in ("non_standing_dependencies", "unjustified_retirements", "ledger_integrity"):
        assert engine.run_audit(name, boundary_id=boundary_id).rows == [], name
