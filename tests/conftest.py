"""Shared test set-up.

Integration tests run against a real Neo4j, resolved like everything else: ``NEO4J_URI`` → a
Docker engine (testcontainers, ``neo4j:5.26-community``) → the local Maven-provisioned server,
started if it is not running. They never skip: no database means a failed run. Tests isolate
themselves by unique boundary ids and never wipe a database they were pointed at.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

_RESOLVED: dict[str, Any] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if "tests/integration/" in path or "tests/reliability/" in path:
            item.add_marker(pytest.mark.integration)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _RESOLVED:
        terminalreporter.write_line(
            f"kg-context: tested against {_RESOLVED['version']} at {_RESOLVED['describe']}",
            bold=True,
        )


@pytest.fixture(scope="session")
def neo4j_target() -> Iterator[Any]:
    from kg_context.db import local_server as neo4j_local
    from kg_context.db.connection import resolve_source, target_for
    from kg_context.settings import LocalServerSettings, Neo4jSettings

    settings, local = Neo4jSettings(), LocalServerSettings()
    source = resolve_source(settings)
    container = None
    if source == "docker":
        from testcontainers.neo4j import Neo4jContainer

        container = Neo4jContainer("neo4j:5.26-community", password="kg-context-tests")
        container.start()
        target = target_for(source, settings, local, uri=container.get_connection_url())
        target = type(target)("docker", target.uri, "neo4j", "kg-context-tests", target.database)
    else:
        if source == "local":
            neo4j_local.start(local)
        target = target_for(source, settings, local)
    try:
        yield target
    finally:
        if container is not None:
            container.stop()


@pytest.fixture(scope="session")
def engine(neo4j_target: Any) -> Iterator[Any]:
    from kg_context.db.schema import apply_schema
    from kg_context.engine import Engine

    # The schema is applied explicitly (whatever KG_CONTEXT_SCHEMA_AUTO_APPLY says): the
    # command's path; test_schema.py covers the check on connect.
    with Engine.connect(neo4j_target, check_schema=False) as connected:
        apply_schema(connected.executor)
        _RESOLVED["version"] = connected.server_version()
        _RESOLVED["describe"] = neo4j_target.describe()
        yield connected


@pytest.fixture(scope="session")
def czar_free_engine(neo4j_target: Any, engine: Any) -> Iterator[Any]:
    """An engine on the test database whose boundaries run no czar by themselves
    (``czar_every_commits=0``): for a test that scripts its own compaction, or counts seqs and
    sets exactly, and says so by asking for this fixture. Every other test runs with the
    default cadence (``engine``)."""
    from kg_context.engine import Engine
    from kg_context.settings import EngineSettings, ResidencySettings

    settings = EngineSettings(residency=ResidencySettings(czar_every_commits=0))
    with Engine.connect(neo4j_target, check_schema=False, engine_settings=settings) as free:
        yield free


@pytest.fixture(scope="session")
def second_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second, real Neo4j server (an isolated local instance on its own ports): where a
    test needs another engine, e.g. writes on one and reads on the other."""
    from kg_context.db import local_server as neo4j_local
    from kg_context.db.connection import target_for
    from kg_context.db.schema import apply_schema
    from kg_context.engine import Engine
    from kg_context.settings import LocalServerSettings, Neo4jSettings

    settings = LocalServerSettings(
        home_dir=tmp_path_factory.mktemp("second-neo4j"),
        # ports overridable so two suites on one machine do not collide
        bolt_port=int(os.environ.get("KG_TEST_SECOND_BOLT_PORT", "17688")),
        http_port=int(os.environ.get("KG_TEST_SECOND_HTTP_PORT", "17475")),
        heap_size="512m",
        pagecache_size="128m",
    )
    neo4j_local.start(settings)
    try:
        target = target_for("local", Neo4jSettings(), settings)
        with Engine.connect(target, check_schema=False) as other:
            apply_schema(other.executor)
            yield other
    finally:
        neo4j_local.stop(settings)


@pytest.fixture
def driver(neo4j_target: Any) -> Iterator[Any]:
    """A bare driver on the test database, for what the executor does not do (PROFILE)."""
    import neo4j

    with neo4j.GraphDatabase.driver(
        neo4j_target.uri, auth=(neo4j_target.username, neo4j_target.password)
    ) as bare:
        yield bare


@pytest.fixture
def boundary_id() -> str:
    """A boundary id no other test (or user) uses: the unit of isolation."""
    return f"test-{uuid.uuid4().hex}"
