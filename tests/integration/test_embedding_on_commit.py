"""Embedding is the write path's: a commit (and an operator's approval of a halted set) embeds
the entries it wrote before it returns, so a recall right after finds them by meaning; with
``embedding.on_commit`` off they wait for ``kg-context embed``, and a search meanwhile finds them
by their words alone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from kg_context.cli.app import app as cli_app
from kg_context.db.connection import Target
from kg_context.engine import Engine
from kg_context.settings import EmbeddingSettings, EngineSettings
from tests.factories import entry, proposal

# No word in common with the entry's key or body: only the vector half can find it.
PARAPHRASE = "which database keeps customer graphs"


def _pending(engine: Engine, boundary_id: str) -> int:
    rows = engine.executor.read(
        "record/pending_embeddings", boundary_id=boundary_id, batch=100, up_to_seq=2**62
    )
    return len(rows)


def _fact(boundary_id: str, **extra: Any) -> dict[str, Any]:
    body = "Neo4j holds the client relationship network"
    return entry("fact", "crm-store", body, attributes={"source": "t"}, **extra)


@pytest.fixture()
def deferred(engine: Engine) -> Iterator[Engine]:
    settings = EngineSettings(embedding=EmbeddingSettings(on_commit=False))
    with Engine.connect(engine.target, settings=settings, check_schema=False) as other:
        yield other


def test_commits_embed_by_default() -> None:
    assert EmbeddingSettings.model_fields["on_commit"].default is True


def test_a_commit_embeds_what_it_wrote_and_a_recall_right_after_finds_it_by_meaning(
    embedding_engine: Engine, boundary_id: str
) -> None:
    engine = embedding_engine
    boundary = engine.boundary(boundary_id)
    fact = _fact(boundary_id, id=f"{boundary_id}-crm")
    assert boundary.commit(proposal(boundary_id, fact, targets=["crm"])).outcome == "commit"
    assert _pending(engine, boundary_id) == 0
    hits = boundary.recall(PARAPHRASE, k=3)
    assert [(h.entry_id, h.matched_by) for h in hits] == [(f"{boundary_id}-crm", "vector")]


def test_an_approved_halt_embeds_what_its_set_wrote(
    embedding_engine: Engine, boundary_id: str
) -> None:
    engine = embedding_engine
    boundary = engine.boundary(boundary_id)
    halted = boundary.commit(
        proposal(boundary_id, _fact(boundary_id, verse="global"), targets=["g"])
    )
    assert halted.outcome == "halt" and halted.halt_id
    assert _pending(engine, boundary_id) == 0  # a halted set wrote no entry
    done = engine.halts.resolve(halted.halt_id, "approve", operator_id="operator", reason="ok")
    assert done.decision is not None and done.decision.outcome == "commit"
    assert _pending(engine, boundary_id) == 0
    assert [h.matched_by for h in boundary.recall(PARAPHRASE, k=3)] == ["vector"]


def test_with_embedding_off_the_operators_embed_command_does_it(
    deferred: Engine, neo4j_target: Target, boundary_id: str
) -> None:
    boundary = deferred.boundary(boundary_id)
    fact = _fact(boundary_id, id=f"{boundary_id}-crm")
    assert boundary.commit(proposal(boundary_id, fact, targets=["crm"])).outcome == "commit"
    assert _pending(deferred, boundary_id) == 1
    assert boundary.recall(PARAPHRASE, k=3) == []  # no word in common, no embedding yet
    assert [h.matched_by for h in boundary.recall("client relationship network", k=3)] == [
        "fulltext"
    ]
    env = {
        "NEO4J_URI": neo4j_target.uri,
        "NEO4J_USERNAME": neo4j_target.username,
        "NEO4J_PASSWORD": neo4j_target.password,
        "NEO4J_DATABASE": neo4j_target.database,
        "KG_CONTEXT_EMBEDDING_ON_COMMIT": "false",
    }
    ran = CliRunner().invoke(cli_app, ["embed", boundary_id, "--json"], env=env)
    assert ran.exit_code == 0, ran.output
    assert '"embedded": 1' in ran.output
    assert _pending(deferred, boundary_id) == 0
    assert [h.matched_by for h in boundary.recall(PARAPHRASE, k=3)] == ["vector"]
