"""The czar runs by itself (issue 11 item 2): on the engine's default cadence, every run's report
kept in the graph as a ``:CzarReport`` node, ``stats`` showing when it last ran and what it
retired, and a window it would empty kept, with a warning and its reason."""

from __future__ import annotations

from typing import Any

from kg_context.engine import Engine
from kg_context.settings import ResidencySettings
from tests.factories import entry, proposal

CADENCE = ResidencySettings().czar_every_commits


def _commit(team: Any, *entries: dict[str, Any]) -> Any:
    decision = team.commit(proposal(team.id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _fact(key: str, **extra: Any) -> dict[str, Any]:
    return entry(cls="fact", key=key, body=f"fact {key}", attributes={"source": "test"}, **extra)


def _reports(engine: Engine, boundary_id: str) -> list[dict[str, Any]]:
    return engine.executor.read("czar/reports", boundary_id=boundary_id, since_seq=-1)


def test_the_default_cadence_runs_the_czar_and_keeps_its_report(
    engine: Engine, boundary_id: str
) -> None:
    assert CADENCE == 25  # the documented default, what the suite's engine runs with
    assert engine.settings.residency.czar_every_commits == CADENCE
    team = engine.boundary(boundary_id)
    _commit(team, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    for n in range(CADENCE - 2):
        _commit(team, _fact(f"loose-{n}", id=f"{boundary_id}-f{n}"))
    assert _reports(engine, boundary_id) == []  # seq 24: not yet
    assert team.stats().czar.runs == 0
    _commit(team, _fact("last", id=f"{boundary_id}-last"))  # seq 25: the cadence fires

    (report,) = _reports(engine, boundary_id)
    assert report["trigger"] == "cadence"
    assert report["retired"] == CADENCE - 1  # every fact no root holds
    assert report["halted"] == 0 and report["warning"] is None
    assert report["seq"] == 26  # after its own compaction set
    assert (report["resident_entries"], report["resident_tokens"]) == (
        1,
        team.stats().resident_tokens,
    )
    window_ids = {e["id"] for g in team.window().as_dict()["groups"] for e in g["entries"]}
    assert window_ids == {f"{boundary_id}-g"}

    czar = team.stats().czar
    assert (czar.runs, czar.last_seq, czar.last_trigger) == (1, 26, "cadence")
    assert (czar.last_retired, czar.retired_total) == (CADENCE - 1, CADENCE - 1)
    assert czar.last_ran_at is not None and czar.last_warning is None

    manual = team.run_czar()  # nothing left to compact: still a report, trigger manual
    assert manual.record["trigger"] == "manual" and manual.record["retired"] == 0
    czar = team.stats().czar
    assert (czar.runs, czar.last_trigger, czar.retired_total) == (2, "manual", CADENCE - 1)


def test_a_window_the_czar_would_empty_is_kept_with_a_warning(
    engine: Engine, boundary_id: str
) -> None:
    team = engine.boundary(boundary_id)
    for n in range(CADENCE):  # facts only: no committed class is a root
        _commit(team, _fact(f"orphan-{n}", id=f"{boundary_id}-o{n}"))

    (report,) = _reports(engine, boundary_id)
    assert report["retired"] == 0 and report["resident_entries"] == CADENCE
    assert report["warning"].startswith("the czar kept the window")
    assert "no committed class is a root" in report["warning"]
    assert team.stats().resident_entries == CADENCE
    czar = team.stats().czar
    assert czar.warnings == 1 and czar.last_warning == report["warning"]


def test_a_window_whose_roots_are_all_gone_is_kept_with_a_warning(
    engine: Engine, boundary_id: str
) -> None:
    team = engine.boundary(boundary_id)
    goal = f"{boundary_id}-g"
    _commit(team, entry(cls="goal", key="ship", body="Ship v1", id=goal))
    _commit(team, _fact("held", id=f"{boundary_id}-held"))
    retire = {
        "id": f"{boundary_id}-drop-goal",
        "boundary_id": boundary_id,
        "writer_id": "operator",
        "writer_kind": "operator",
        "targets": ["t"],
        "transitions": [{"entry_id": goal, "to": "retired", "reason": "goal dropped"}],
    }
    assert team.commit(retire).outcome == "commit"
    report = team.run_czar()
    assert report.warning is not None and "no live root" in report.warning
    assert report.record["warning"] == report.warning
    assert team.stats().resident_entries == 1  # the fact stays
