"""The engine's API against the real Neo4j: a boundary is written once per engine,
reading never creates one, handles carry the engine's settings (read once, not from the
environment later), and the handle's methods are the module functions over the same receiver."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.db.connection import Target
from kg_context.engine import Engine
from kg_context.errors import InputValidationError, StateError
from kg_context.record.history import index
from kg_context.record.observability import audit
from kg_context.residency.czar import run_czar
from kg_context.residency.metrics import stats
from kg_context.residency.reachability import reachable, why
from kg_context.residency.window import window
from kg_context.settings import EngineSettings, ResidencySettings
from tests.factories import constitution_variant, entry, proposal


def _commit(boundary: Any, *entries: dict[str, Any]) -> Any:
    decision = boundary.commit(proposal(boundary.id, *entries, targets=[f"t-{id(entries)}"]))
    assert decision.outcome == "commit", (decision.reason_code, decision.detail)
    return decision


def _fact(key: str, **extra: Any) -> dict[str, Any]:
    return entry(cls="fact", key=key, body=f"fact {key}", attributes={"source": "test"}, **extra)


def _counting_writes(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the name of every statement the engine's executor writes (they still run)."""
    names: list[str] = []
    real = engine.executor.write

    def write(name: str, /, **params: Any) -> Any:
        names.append(name)
        return real(name, **params)

    monkeypatch.setattr(engine.executor, "write", write)
    return names


def test_a_boundary_is_written_once_per_engine_and_reading_never_creates_one(
    neo4j_target: Target, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Engine.connect(neo4j_target) as fresh:
        writes = _counting_writes(fresh, monkeypatch)
        first = fresh.boundary(boundary_id)
        assert writes == ["constitution/ensure", "boundary/ensure"]
        assert first.state().seq == 0
        again = fresh.boundary(boundary_id)
        assert writes == ["constitution/ensure", "boundary/ensure"]  # no write on later calls
        fresh.boundary(f"{boundary_id}-2")  # a new id is created; its constitution is known
        assert writes[2:] == ["boundary/ensure"]
        assert again.state().constitution_version == first.constitution().version

        missing = f"{boundary_id}-missing"
        with pytest.raises(StateError, match=f"no boundary {missing}"):
            fresh.boundary(missing, create=False)
        assert fresh.boundary(boundary_id, create=False).id == boundary_id
        assert writes[3:] == []  # neither the refusal nor the existing handle wrote
        assert fresh.executor.read("boundary/get", boundary_id=missing) == []


def test_handles_read_the_engine_settings_not_the_environment(
    neo4j_target: Target, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS", raising=False)
    settings = EngineSettings(
        residency=ResidencySettings(czar_id="czar-engine", czar_every_commits=2)
    )
    # the constitution names the engine's czar (only a named czar may write as one)
    rules = constitution_variant(
        f"czars-{boundary_id[-12:]}", ('czars = ["czar"]', 'czars = ["czar", "czar-engine"]')
    )
    with Engine.connect(neo4j_target, settings=settings) as configured:
        # Read after the engine was constructed: ignored by it.
        monkeypatch.setenv("KG_CONTEXT_RESIDENCY_CZAR_ID", "czar-env")
        monkeypatch.setenv("KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS", "0")
        boundary = configured.boundary(boundary_id, constitution=rules)
        assert boundary.settings is configured.settings is settings
        goal, loose = f"{boundary_id}-g", f"{boundary_id}-f"
        _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=goal))
        _commit(boundary, _fact("loose", id=loose))  # seq 2: held by no root
        assert loose not in reachable(boundary).reached
        assert boundary.state().czar_every_commits == 2  # the engine's, recorded on creation
        assert configured.czar_idle(timeout=60) and not configured.czar_failures
        # The cadence (every 2 commits) ran the czar, beside the writer, as the engine's czar.
        last = index(boundary)[-1]
        assert (last.kind, last.writer_id) == ("compaction", "czar-engine")
        rows = configured.executor.read("audits/boundary_entries", boundary_id=boundary_id)
        assert {r["id"]: r["status"] for r in rows}[loose] == "retired"

    with Engine.connect(neo4j_target) as plain:  # this engine reads the environment now
        other = plain.boundary(f"{boundary_id}-plain")
        assert other.state().czar_every_commits == 0  # KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS
        report = run_czar(other)
        assert report.plan.czar_id == "czar-env"


def test_handle_methods_are_the_module_functions_over_the_same_receiver(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    goal, dec = f"{boundary_id}-g", f"{boundary_id}-d"
    _commit(boundary, entry(cls="goal", key="ship", body="Ship v1", id=goal))
    _commit(
        boundary,
        entry(
            key="db",
            body="Use Neo4j for the ledger",
            id=dec,
            derived_from=[{"entry_id": goal, "essential": True}],
        ),
    )
    assert boundary.window() == window(boundary)
    assert boundary.stats() == stats(boundary)
    assert boundary.why(dec) == why(boundary, dec) and boundary.why(dec).held
    assert boundary.audit() == audit(boundary)
    assert [h.entry_id for h in boundary.recall("ledger")][:1] == [dec]
    assert boundary.run_czar().decisions == ()
    blast = boundary.challenge(goal, reason="doubt", writer_id="operator")
    assert blast.decision.outcome == "commit" and blast.moved_at_risk == (dec,)


def test_an_operation_on_one_boundary_cannot_reach_another_s_entry(
    engine: Engine, boundary_id: str
) -> None:
    ours, theirs = engine.boundary(boundary_id), engine.boundary(f"{boundary_id}-theirs")
    foreign = f"{boundary_id}-theirs-d"
    _commit(theirs, entry(key="db", body="Use Neo4j", id=foreign))
    assert why(theirs, foreign).held
    with pytest.raises(StateError, match=f"no entry {foreign} in boundary {boundary_id}"):
        why(ours, foreign)
    with pytest.raises(StateError, match=f"no entry or set {foreign} in boundary {boundary_id}"):
        ours.invalidate(foreign, reason="not ours", writer_id="operator")


@pytest.mark.parametrize("verse", ["bogus", ""])
def test_an_unknown_verse_is_a_typed_input_error_naming_the_verses(engine: Any, verse: str) -> None:
    with pytest.raises(InputValidationError, match="local"):
        engine.boundary("never-created", verse=verse)
    assert not engine.executor.read("boundary/get", boundary_id="never-created")
