"""Shared test set-up.

Integration tests run against a real Neo4j, resolved like everything else: ``NEO4J_URI`` → a
Docker engine (testcontainers, ``neo4j:5.26-community``) → the local Maven-provisioned server,
started if it is not running. They never skip: no database means a failed run. Tests isolate
themselves by unique boundary ids and never wipe a database they were pointed at.

The suite runs in parallel workers (pytest-xdist, ``make test``): each worker connects once and
loads the model once; the local server is started and the schema applied under a file lock, so
by one worker at a time. A test is scheduled on its own unless it shares an expensive fixture:
every test of a file with a module-scoped fixture runs on one worker (the fixture is set up
once), and every test of a session server of its own (``SERVER_GROUPS``) runs on one worker
(that server starts once); a file of the pure tests (tests/unit) is one unit of work. The
workers are handed the longest tests and groups first (``LONGEST_FIRST``), then the other groups,
the other tests, and the pure tests last. A test marked ``serial`` (it counts what the whole
database holds) runs alone: the other workers wait while it runs, fixtures included.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.ports import free_port

# Commits in the suite leave embedding to the tests about it (``embedding_engine``): the model's
# work after every commit would multiply the suite's time, and no other test reads an embedding.
# Subprocesses the tests start inherit it; a test that wants embedding sets it explicitly.
os.environ.setdefault("KG_CONTEXT_EMBEDDING_ON_COMMIT", "false")
# A server the suite starts (the test database when none runs, and the servers of its own) keeps
# its Cypher plans for the run: its store grows from empty, which otherwise has Neo4j plan every
# statement again and again in the first minutes, on the CPU the tests need
# (``KG_CONTEXT_LOCAL_CYPHER_MIN_REPLAN_INTERVAL``; ``make test`` starts the test database so).
os.environ.setdefault("KG_CONTEXT_LOCAL_CYPHER_MIN_REPLAN_INTERVAL", "1h")
# The suite's servers start many times: each maps the class archive (``make test`` sets it too).
os.environ.setdefault("KG_CONTEXT_LOCAL_CLASS_DATA_SHARING", "true")
# ... and collects garbage with the parallel collector, the cheapest in CPU (``make test`` too).
os.environ.setdefault("KG_CONTEXT_LOCAL_GC", "parallel")

_RESOLVED: dict[str, Any] = {}

# Session fixtures that start a Neo4j server of their own: the tests using one run on one worker.
SERVER_GROUPS = {"killable": "killable-server", "second_engine": "second-server"}
_SHARED_SCOPES = ("module", "class", "package")


def _shares_a_scoped_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.values() if info is not None else ()
    return any(d.scope in _SHARED_SCOPES for defs in definitions for d in defs)


def _server_group(item: pytest.Item) -> str | None:
    names = getattr(item, "fixturenames", ())
    return next((group for name, group in SERVER_GROUPS.items() if name in names), None)


def _xdist_groups(items: list[pytest.Item]) -> dict[str, str]:
    """The worker group of each file whose tests must run on one worker: a file with a test of
    a server of its own joins that server's group, and a file with a module-scoped fixture, or of
    the pure tests, is its own group (the fixture is set up once; the pure tests are too short to
    schedule one by one). The tests of other files go anywhere."""
    groups: dict[str, str] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        server = _server_group(item)
        if server is not None:
            groups[path] = server
        elif path not in groups and (_shares_a_scoped_fixture(item) or _is_unit(path)):
            groups[path] = path
    return groups


def _is_unit(path: str) -> bool:
    """A file of the pure tests (milliseconds each): scheduled as one unit, so the workers do not
    wait on the scheduler between tests."""
    return path.replace("\\", "/").startswith("tests/unit/")


def _groups_file(run: str | None = None) -> Path:
    run = run or os.environ.get("PYTEST_XDIST_TESTRUNUID", "none")
    return Path(tempfile.gettempdir()) / f"kg-context-tests-{run}.groups.json"


def pytest_configure(config: pytest.Config) -> None:
    # The run's id, known to the controller too (its workers have it as PYTEST_XDIST_TESTRUNUID).
    if getattr(config.option, "testrunuid", "") is None:
        config.option.testrunuid = uuid.uuid4().hex


# The suite's longest tests and groups (the documented examples as subprocesses, the kill -9 runs
# on a server of their own, the quick triangle, the property test's shards, the short soak, the
# tests that start a server of their own or load the model), longest first: collected first, so
# the workers start them first and no one of them is left to run alone at the end.
LONGEST_FIRST = (
    "tests/reliability/test_crash.py",
    "tests/integration/test_readme.py",
    "tests/integration/test_gate_properties.py",
    "tests/reliability/test_soak.py",
    "tests/integration/test_attention.py",
    "tests/integration/test_local_server.py",
    "tests/integration/test_triangle.py",
    "tests/integration/test_ledger.py",
    "tests/integration/test_schema.py",
    "tests/integration/test_scale_benchmark.py",
    "tests/reliability/test_concurrency.py",
    "tests/integration/test_benchmarks_quick.py",
)


def _longest_first(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0].replace("\\", "/")
    return next(
        (i for i, long in enumerate(LONGEST_FIRST) if path.endswith(long)), len(LONGEST_FIRST)
    )


def _group(item: pytest.Item, groups: dict[str, str]) -> str | None:
    """The worker group of a test: its ``xdist_group`` mark's, else its file's (or none)."""
    marked = item.get_closest_marker("xdist_group")
    if marked and marked.args:
        return str(marked.args[0])
    return groups.get(item.nodeid.replace("\\", "/").split("::", 1)[0])


def _scheduling_order(items: list[pytest.Item], groups: dict[str, str]) -> None:
    """The order the workers are given the tests in (the scheduler keeps the collection's):
    the groups and tests of ``LONGEST_FIRST`` in its order, then the other groups, larger first,
    then the other tests as collected, then the pure tests' files (short units, to end on). The
    tests of one group stay together, in the same order (its longest file first)."""
    group_of = [_group(item, groups) or item.nodeid for item in items]
    rank: dict[str, int] = {}
    size: dict[str, int] = {}
    first: dict[str, int] = {}
    for index, (item, group) in enumerate(zip(items, group_of, strict=True)):
        own = _longest_first(item) + _is_unit(item.nodeid.split("::", 1)[0])  # the pure tests last
        rank[group] = min(rank.get(group, own), own)
        size[group] = size.get(group, 0) + 1
        first.setdefault(group, index)
    order = sorted(
        range(len(items)),
        key=lambda i: (
            rank[group_of[i]],
            -size[group_of[i]],
            first[group_of[i]],
            _longest_first(items[i]),
            i,
        ),
    )
    items[:] = [items[i] for i in order]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups = _xdist_groups(items)
    _scheduling_order(items, groups)
    placed = {}
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if "tests/integration/" in path or "tests/reliability/" in path:
            item.add_marker(pytest.mark.integration)
        group = _group(item, groups)
        if group is not None:
            placed[item.nodeid] = group
    if "PYTEST_XDIST_WORKER" in os.environ:  # for the controller's scheduler (below)
        written = _groups_file().with_suffix(f".{os.environ['PYTEST_XDIST_WORKER']}")
        written.write_text(json.dumps(placed))
        written.replace(_groups_file())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``: each test is its own unit of work unless the workers'
    collection placed it in a group (``_xdist_groups``, or an ``xdist_group`` mark), whose tests
    then go to one worker together, in order. The units are handed out in the collection's
    order (``_scheduling_order``), not xdist's largest-first reordering, which would start every
    group before the longest single tests."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:
                run = self.config.getoption("testrunuid")
                self.groups = json.loads(_groups_file(run).read_text())
            base = nodeid.rsplit("@", 1)[0] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid
            return self.groups.get(base, nodeid)

    return GroupScheduling(config, log)


@contextmanager
def _one_process_at_a_time(name: str) -> Iterator[None]:
    """An exclusive lock across the suite's processes (the xdist workers of one run, and other
    runs on this machine): for what must not run twice at once, such as starting the server."""
    with (Path(tempfile.gettempdir()) / f"kg-context-tests-{name}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def _run_lock(exclusive: bool) -> Iterator[None]:
    """One xdist run's readers-writer lock over its tests: every test holds it shared, a
    ``serial`` test exclusively. A waiting serial test holds the turnstile, so no test starts
    meanwhile and it is not starved by the others' turns."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "none")
    base = Path(tempfile.gettempdir()) / f"kg-context-tests-{run}"
    turnstile, tests = base.with_suffix(".turnstile"), base.with_suffix(".run")
    with turnstile.open("w") as turn, tests.open("w") as main:
        fcntl.flock(turn, fcntl.LOCK_EX)
        try:
            fcntl.flock(main, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            if not exclusive:
                fcntl.flock(turn, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(main, fcntl.LOCK_UN)
            fcntl.flock(turn, fcntl.LOCK_UN)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return (yield)
    with _run_lock(exclusive=item.get_closest_marker("serial") is not None):
        return (yield)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None and _RESOLVED:
        workeroutput["kg_context_resolved"] = dict(_RESOLVED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    resolved = getattr(node, "workeroutput", {}).get("kg_context_resolved")
    if resolved:
        _RESOLVED.update(resolved)


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
        # as docker-compose.yml and the local server: one plan per statement and parameter type
        container.with_env("NEO4J_internal_cypher_use__parameter__size", "false")
        container.start()
        target = target_for(source, settings, local, uri=container.get_connection_url())
        target = type(target)("docker", target.uri, "neo4j", "kg-context-tests", target.database)
    else:
        if source == "local":
            with _one_process_at_a_time("local-server"):
                neo4j_local.start(local)
        target = target_for(source, settings, local)
    try:
        yield target
    finally:
        if container is not None:
            container.stop()


@pytest.fixture(scope="session")
def schema_applied(neo4j_target: Any) -> Any:
    """The test database with the schema applied, explicitly (whatever
    KG_CONTEXT_SCHEMA_AUTO_APPLY says): the command's path; test_schema.py covers the check on
    connect."""
    from kg_context.db.schema import apply_schema
    from kg_context.engine import Engine

    with Engine.connect(neo4j_target, check_schema=False) as connected:
        with _one_process_at_a_time("schema"):
            apply_schema(connected.executor)
        _RESOLVED["version"] = connected.server_version()
        _RESOLVED["describe"] = neo4j_target.describe()
    return neo4j_target


@pytest.fixture(scope="session")
def engine(schema_applied: Any) -> Iterator[Any]:
    from kg_context.engine import Engine

    with Engine.connect(schema_applied, check_schema=False) as connected:
        yield connected


@pytest.fixture(scope="session")
def embedding_engine(schema_applied: Any) -> Iterator[Any]:
    """An engine on the test database that embeds what each commit wrote (the product's
    default, which the suite's other engines leave off): for a test that finds entries by
    meaning right after committing them."""
    from kg_context.engine import Engine
    from kg_context.settings import EmbeddingSettings, EngineSettings

    settings = EngineSettings(embedding=EmbeddingSettings(on_commit=True))
    with Engine.connect(schema_applied, check_schema=False, settings=settings) as embedding:
        yield embedding


@pytest.fixture(scope="session")
def czar_free_engine(neo4j_target: Any, engine: Any) -> Iterator[Any]:
    """An engine on the test database whose boundaries run no czar by themselves
    (``czar_every_commits=0``): for a test that scripts its own compaction, or counts seqs and
    sets exactly, and says so by asking for this fixture. Every other test runs with the
    default cadence (``engine``)."""
    from kg_context.engine import Engine
    from kg_context.settings import EngineSettings, ResidencySettings

    settings = EngineSettings(residency=ResidencySettings(czar_every_commits=0))
    with Engine.connect(neo4j_target, check_schema=False, settings=settings) as free:
        yield free


@pytest.fixture(scope="session")
def second_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second, real Neo4j server (an isolated local instance on its own ports): where a
    test needs another engine, e.g. writes on one and reads on the other, and where a test
    counts every node and relationship of a database around what it does (only the tests of
    this server's group write to it, one at a time on one worker, beside the rest of the run)."""
    from kg_context.db import local_server as neo4j_local
    from kg_context.db.connection import target_for
    from kg_context.db.schema import apply_schema
    from kg_context.engine import Engine
    from kg_context.settings import Neo4jSettings
    from tests.servers import own_server

    settings = own_server(
        tmp_path_factory.mktemp("second-neo4j"),
        # free ports unless given, so suites and workers on one machine never collide
        bolt_port=int(os.environ.get("KG_TEST_SECOND_BOLT_PORT") or free_port()),
        http_port=int(os.environ.get("KG_TEST_SECOND_HTTP_PORT") or free_port()),
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
