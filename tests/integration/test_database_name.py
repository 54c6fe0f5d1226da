"""The engine on a database other than ``neo4j`` (``NEO4J_DATABASE``).

Where the server serves or can create a second user database (Enterprise, Aura), the engine
runs on it and its writes stay there. A Community server serves one user database and refuses
``CREATE DATABASE``: the test shows that refusal, then that an engine pointed at a database the
server does not have fails with a typed error naming it (the CLI's one line for it:
``test_database.py``). Either way something is asserted: the test never skips.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import neo4j
import pytest

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import Neo4jExecutor
from kg_context.db.schema import apply_schema
from kg_context.engine import Engine
from kg_context.errors import DatabaseNotFoundError, QueryError
from tests.factories import entry, proposal

FIXTURES = Catalog(Path(__file__).parent / "database_fixtures")
SECOND = "kgcontexttests"  # reused across runs; tests isolate by boundary id


def on(target: Target, database: str) -> Target:
    return Target(target.source, target.uri, target.username, target.password, database)


def system_executor(target: Target) -> tuple[Neo4jExecutor, neo4j.Driver]:
    driver = open_driver(target)
    return Neo4jExecutor(driver, database="system", uri=target.uri, catalog=FIXTURES), driver


def test_the_engine_runs_on_another_database_or_names_the_one_the_server_lacks(
    neo4j_target: Target, engine: Engine, boundary_id: str
) -> None:
    edition = engine.executor.read("admin/server_components")[0]["edition"]
    system, driver = system_executor(neo4j_target)
    try:
        served = {r["name"]: r["online"] for r in system.read("admin/databases")}
        others = sorted(n for n, online in served.items() if online and n != engine.target.database)
        if not others and edition != "community":
            system.write("admin/create_database", name=SECOND)
            others = [SECOND]
        if not others:
            # Community: one user database, and no way to make another.
            assert list(served) == [engine.target.database], served
            with pytest.raises(QueryError) as refused:
                system.write("admin/create_database", name=SECOND)
            assert (
                refused.value.code == "Neo.ClientError.Statement.UnsupportedAdministrationCommand"
            )
            missing_database_is_named(neo4j_target, served)
            return
    finally:
        driver.close()
    runs_on(on(neo4j_target, others[0]), engine, boundary_id)


def runs_on(target: Target, default: Engine, boundary_id: str) -> None:
    """Schema, a commit and its window on the other database; none of it in the default one."""
    with Engine.connect(target, check_schema=False) as other:
        apply_schema(other.executor)
        boundary = other.boundary(boundary_id)
        decision = boundary.commit(proposal(boundary_id, entry(id=f"{boundary_id}-e1")))
        assert decision.outcome == "commit", decision
        assert [e.id for e in boundary.window().entries] == [f"{boundary_id}-e1"]
        assert other.executor.database == target.database
    assert default.executor.read("boundary/get", boundary_id=boundary_id) == []


def missing_database_is_named(target: Target, served: dict[str, bool]) -> None:
    name = f"kgnone{uuid.uuid4().hex[:12]}"
    assert name not in served
    with pytest.raises(DatabaseNotFoundError) as caught:
        Engine.connect(on(target, name))
    assert caught.value.database == name and caught.value.uri == target.uri
    assert repr(name) in str(caught.value) and "NEO4J_DATABASE" in str(caught.value)
