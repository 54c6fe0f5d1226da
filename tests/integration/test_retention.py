"""Retention policies that differ, and leases that renew, on the real graph.

- soft holds for its lease, counted in the boundary's work (the czar's sets do not age it), then
  leaves;
- reconstructible leaves the window while the record can rebuild it, and comes back through the
  gate (a recall set);
- leases renew by a live reference, by use, and by an operator's foundational mark, each recorded;
- a foundational mark by a writer that is not an operator is refused and changes nothing;
- ``why`` names the policy and the lease that hold an entry.

The czar runs only where a test calls it (its boundaries are created with no czar cadence).
"""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from kg_context.cli.app import app
from kg_context.residency.czar import run_czar
from kg_context.residency.reachability import reachable, why
from kg_context.residency.recall import rehydrate
from kg_context.settings import ResidencySettings
from tests.factories import entry, proposal


def _handle(engine: Any, boundary_id: str) -> Any:
    return engine.boundary(boundary_id, czar_every_commits=0)  # the czar runs only when run


def _commit(boundary: Any, boundary_id: str, *entries: dict[str, Any], **kw: Any) -> Any:
    decision = boundary.commit(proposal(boundary_id, *entries, targets=[f"t-{id(entries)}"], **kw))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _fact(boundary_id: str, name: str, **extra: Any) -> dict[str, Any]:
    return entry(
        cls="fact",
        key=name,
        body=f"the {name} fact",
        id=f"{boundary_id}-{name}",
        attributes={"source": "test"},
        **extra,
    )


def _filler(boundary: Any, boundary_id: str, n: int) -> None:
    for i in range(n):
        _commit(boundary, boundary_id, entry(cls="goal", key=f"g{i}-{id(boundary)}", body="filler"))


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _clock(boundary: Any) -> tuple[int, int]:
    state = boundary.state()
    return state.seq, state.work_seq


def test_soft_holds_for_its_lease_in_work_sets_the_czar_does_not_age_it_then_leaves(
    engine: Any, boundary_id: str
) -> None:
    boundary = _handle(engine, boundary_id)
    fact, loose = f"{boundary_id}-f", f"{boundary_id}-loose"
    _commit(boundary, boundary_id, _fact(boundary_id, "f"))  # seq 1, work 1
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 2}
    _commit(boundary, boundary_id, entry(key="d", body="uses f", requires=[soft]))  # work 2: to 4
    _commit(boundary, boundary_id, _fact(boundary_id, "loose"))  # work 3, held by nothing
    report = run_czar(boundary)  # a compaction set: seq 4, the work clock stays at 3
    assert report.committed and loose in report.summary()["retired"]
    assert _clock(boundary) == (4, 3)
    _filler(boundary, boundary_id, 1)  # seq 5, work 4: the lease (to work 4) still holds
    assert fact in reachable(boundary).reached
    assert fact not in run_czar(boundary).summary()["retired"]
    path = why(boundary, fact)
    assert path.held and path.hold == "soft, lease until work seq 4, never renewed"
    _filler(boundary, boundary_id, 1)  # work 5: the lease has run out
    assert fact not in reachable(boundary).reached
    report = run_czar(boundary)
    assert report.committed and fact in report.summary()["retired"]
    assert report.summary()["expired_leases"] == 1
    f = _entries(engine, boundary_id)[fact]
    assert (f["status"], f["resident"]) == ("retired", False)


def test_reconstructible_leaves_while_rebuildable_and_comes_back_through_the_gate(
    engine: Any, boundary_id: str
) -> None:
    boundary = _handle(engine, boundary_id)
    rebuilt, kept = f"{boundary_id}-r", f"{boundary_id}-s"
    dependent = f"{boundary_id}-d"
    _commit(boundary, boundary_id, _fact(boundary_id, "r"), _fact(boundary_id, "s"))
    _commit(
        boundary,
        boundary_id,
        entry(
            key="d",
            body="needs both",
            id=dependent,
            requires=[
                {"entry_id": rebuilt, "policy": "reconstructible", "lease_sets": 50},
                {"entry_id": kept, "policy": "soft", "lease_sets": 50},
            ],
        ),
    )
    # Same lease, different policy: the soft one holds; the reconstructible one does not,
    # because recall rebuilds its target whole (a body, no REQUIRES of its own).
    reach = reachable(boundary)
    assert kept in reach.reached and rebuilt not in reach.reached
    # An entry whose REQUIRES closure recall's caps cannot carry whole is not rebuildable: its
    # reconstructible lease holds it.
    base = f"{boundary_id}-base"
    _commit(boundary, boundary_id, entry(cls="goal", key="base", body="a root", id=base))
    deep = f"{boundary_id}-deep"
    _commit(
        boundary,
        boundary_id,
        _fact(boundary_id, "deep", requires=[{"entry_id": base}]),
        entry(
            key="d2",
            body="needs deep",
            requires=[{"entry_id": deep, "policy": "reconstructible", "lease_sets": 50}],
        ),
    )
    assert deep not in reachable(boundary).reached  # closure {deep, base}: within the caps
    shallow = ResidencySettings(recall_max_depth=0)
    assert deep in reachable(boundary, settings=shallow).reached  # recall would cut base

    report = run_czar(boundary)
    assert report.committed and rebuilt in report.summary()["retired"]
    entries = _entries(engine, boundary_id)
    assert (entries[rebuilt]["status"], entries[rebuilt]["resident"]) == ("retired", False)
    assert entries[kept]["resident"] is True
    path = why(boundary, rebuilt)
    assert path.reconstructible_from == (dependent,) and path.recallable
    assert path.render().startswith(f"{rebuilt} (retired, not resident): reconstructible: out")
    assert "rebuildable via recall" in path.render()

    # When needed, it comes back as a recall set through the gate: a scratch copy in the window.
    admission = rehydrate(boundary, dependent, writer_id="writer-1")
    assert admission is not None and admission.decision.outcome == "commit"
    copy = admission.copies[rebuilt]
    after = _entries(engine, boundary_id)
    assert (after[copy]["status"], after[copy]["resident"]) == ("live", True)
    assert after[rebuilt]["status"] == "retired"  # the record is not rewritten
    assert copy in {e.id for e in boundary.window().entries}
    assert rehydrate(boundary, f"{boundary_id}-s", writer_id="writer-1") is None


def test_each_renewal_kind_extends_the_lease_and_is_recorded(engine: Any, boundary_id: str) -> None:
    boundary = _handle(engine, boundary_id)
    fact, d1, d2 = f"{boundary_id}-f", f"{boundary_id}-d1", f"{boundary_id}-d2"
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 2}
    _commit(boundary, boundary_id, _fact(boundary_id, "f"))  # work 1
    _commit(boundary, boundary_id, entry(key="d1", body="a", id=d1, requires=[soft]))  # to 4
    _filler(boundary, boundary_id, 1)  # work 3
    # (a) a live reference: d2 requires the fact at work 4 -> d1's edge runs to 4 + 2
    _commit(boundary, boundary_id, entry(key="d2", body="b", id=d2, requires=[soft]))
    # (b) use: an entry derived from the fact at work 5 -> both edges run to 5 + 2
    user = f"{boundary_id}-u"
    _commit(
        boundary,
        boundary_id,
        entry(key="u", body="c", id=user, derived_from=[{"entry_id": fact, "essential": False}]),
    )
    rows = engine.run_audit("lease_renewals", boundary_id=boundary_id).rows
    got = [(r["kind"], r["from_id"], r["by_id"], r["seq"], r["previous_until"], r["until"])
           for r in rows]  # fmt: skip
    assert got == [
        ("live_reference", d1, d2, 4, 4, 6),
        ("use", d1, user, 5, 6, 7),
        ("use", d2, user, 5, 6, 7),
    ]
    held = why(boundary, fact).hold
    assert held == f"soft, lease until work seq 7, last renewed at seq 5 by {user} (use)"
    # a czar run renews nothing and ages nothing
    _filler(boundary, boundary_id, 2)  # work 7: still held
    run_czar(boundary)
    assert len(engine.run_audit("lease_renewals", boundary_id=boundary_id).rows) == 3
    assert fact in reachable(boundary).reached

    # (c) an operator's foundational mark: the lease holds while the mark stands
    marked = boundary.commit(
        proposal(
            boundary_id,
            writer_id="operator",
            writer_kind="operator",
            foundational=[fact],
            entries=[],
        )
    )
    assert marked.outcome == "commit", (marked.reason_code, marked.detail)
    _filler(boundary, boundary_id, 5)  # far past every lease
    assert fact in reachable(boundary).reached
    assert run_czar(boundary).summary()["expired_leases"] == 0
    path = why(boundary, fact)
    assert path.hold == f"soft, foundational, marked by operator operator at seq {marked.seq}"
    foundational = [r for r in engine.run_audit("lease_renewals", boundary_id=boundary_id).rows
                    if r["kind"] == "foundational"]  # fmt: skip
    assert sorted(r["from_id"] for r in foundational) == [d1, d2]
    assert all(r["until"] is None and r["by_id"] == "operator" for r in foundational)
    marks = engine.run_audit("foundational_entries", boundary_id=boundary_id).rows
    assert [(m["entry_id"], m["marked_by"], m["seq"]) for m in marks] == [
        (fact, "operator", marked.seq)
    ]
    assert engine.run_audit("unstanding_renewals", boundary_id=boundary_id).clean


def test_a_foundational_mark_by_a_non_operator_is_refused_and_changes_nothing(
    engine: Any, boundary_id: str
) -> None:
    boundary = _handle(engine, boundary_id)
    fact = f"{boundary_id}-f"
    soft = {"entry_id": fact, "policy": "soft", "lease_sets": 1}
    _commit(boundary, boundary_id, _fact(boundary_id, "f"))
    _commit(boundary, boundary_id, entry(key="d", body="a", requires=[soft]))
    before = (_clock(boundary), _entries(engine, boundary_id))
    refused = boundary.commit(
        proposal(boundary_id, writer_id="writer-1", foundational=[fact], entries=[])
    )
    assert (refused.outcome, refused.reason_code) == ("reject", "FOUNDATIONAL_MARK")
    assert "only a named operator" in refused.detail
    assert (_clock(boundary), _entries(engine, boundary_id)) == before
    assert engine.run_audit("foundational_entries", boundary_id=boundary_id).rows == []
    assert engine.run_audit("lease_renewals", boundary_id=boundary_id).rows == []
    _filler(boundary, boundary_id, 2)
    assert fact not in reachable(boundary).reached  # the lease ran out as if nothing was asked


def test_why_names_the_policy_and_lease_in_the_cli(engine: Any, boundary_id: str) -> None:
    boundary = _handle(engine, boundary_id)
    fact = f"{boundary_id}-f"
    _commit(boundary, boundary_id, _fact(boundary_id, "f"))
    _commit(
        boundary,
        boundary_id,
        entry(key="d", body="a", requires=[{"entry_id": fact, "policy": "soft", "lease_sets": 9}]),
    )
    result = CliRunner().invoke(app, ["why", fact, "-b", boundary_id, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["held"] and data["work"] == 2
    assert data["edges"][-1]["policy"] == "soft" and data["edges"][-1]["lease_until"] == 11
    text = CliRunner().invoke(app, ["why", fact, "-b", boundary_id])
    assert "-[soft, lease until work seq 11, never renewed]->" in text.output


def test_one_entry_renewing_two_edges_of_one_dependent_records_both(
    engine: Any, boundary_id: str
) -> None:
    """A dependent that requires two entries, both required again by one newer entry: two
    renewals of two edges, each recorded once (the 500-set session once failed its commit on a
    renewal id that named the dependent but not the renewed entry)."""
    boundary = _handle(engine, boundary_id)
    f1, f2 = f"{boundary_id}-f1", f"{boundary_id}-f2"
    d, u = f"{boundary_id}-d", f"{boundary_id}-u"
    _commit(boundary, boundary_id, _fact(boundary_id, "f1"), _fact(boundary_id, "f2"))
    soft = [{"entry_id": f, "policy": "soft", "lease_sets": 2} for f in (f1, f2)]
    _commit(boundary, boundary_id, entry(key="d", body="a", id=d, requires=soft))
    _commit(boundary, boundary_id, entry(key="u", body="b", id=u, requires=soft))
    rows = engine.run_audit("lease_renewals", boundary_id=boundary_id).rows
    got = sorted((r["kind"], r["from_id"], r["to_id"], r["by_id"]) for r in rows)
    assert got == [("live_reference", d, f1, u), ("live_reference", d, f2, u)]
    assert engine.run_audit("unstanding_renewals", boundary_id=boundary_id).clean
