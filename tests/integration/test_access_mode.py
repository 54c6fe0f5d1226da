"""Every statement the engine runs goes out in the access mode its Cypher needs, over a routing
(``neo4j://``) driver, with the writer's bookmarks.

On a cluster a READ unit of work is routed to a secondary and a WRITE one to the leader; a
statement that writes sent as READ fails there, and a read sent as WRITE loads the leader. The
server decides what a statement does: ``EXPLAIN`` reports its query type (``r`` reads only,
``rw``/``w`` write, ``s`` a schema command or a DBMS procedure). A read routed to a secondary
sees the engine's own last write only if it starts from that write's bookmarks (the executor's
bookmark manager).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import neo4j
import pytest

from kg_context.attention.store import AttentionStore
from kg_context.db.catalog import Catalog, default_catalog
from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine
from kg_context.settings import EngineSettings, ResidencySettings
from tests.factories import entry, proposal
from tests.integration.conftest import CATALOG_PLANS
from tests.plans import Explained

pytestmark = CATALOG_PLANS

# Statements that only read, yet are sent as WRITE on purpose, each with the reason.
READS_SENT_AS_WRITE = {
    # Schema apply waits for the new indexes on the member that created them (the leader),
    # before the same member drops the rules they replace: uniqueness is never unguarded there.
    "admin/await_indexes",
}


# A call of the executor (or a reader) with a catalog name written out: `.read("window/resident"`.
CALL = re.compile(r"\.(read|write)\(\s*\"([a-z_]+/[a-z_0-9]+)\"")
PRODUCT = Path(__file__).resolve().parents[2] / "kg_context"


def routing_uri(uri: str) -> str:
    """The same server under the routing scheme (``bolt://`` → ``neo4j://``)."""
    scheme, rest = uri.split("://", 1)
    return f"{scheme.replace('bolt', 'neo4j', 1)}://{rest}"


@dataclass
class Unit:
    """One unit of work as the driver saw it."""

    mode: str  # "READ" | "WRITE"
    database: str | None
    bookmark_manager: object
    started_with: frozenset[str]
    statements: list[str] = field(default_factory=list)
    ended_with: frozenset[str] = frozenset()


class _ObservedTx:
    def __init__(self, tx: neo4j.ManagedTransaction, unit: Unit) -> None:
        self._tx = tx
        self._unit = unit

    def run(self, query: str, parameters: Any = None, **kwargs: Any) -> neo4j.Result:
        self._unit.statements.append(query)
        return self._tx.run(query, parameters, **kwargs)


class _ObservedSession:
    def __init__(self, session: neo4j.Session, config: dict[str, Any], log: list[Unit]) -> None:
        self._session = session
        self._config = config
        self._log = log

    def __enter__(self) -> _ObservedSession:
        self._session.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._session.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    def _execute(self, mode: str, run: Callable[..., Any], work: Callable[..., Any]) -> Any:
        manager = self._config.get("bookmark_manager")
        started = frozenset(manager.get_bookmarks()) if manager is not None else None
        unit = Unit(mode, self._config.get("database"), manager, started or frozenset())
        self._log.append(unit)
        result = run(lambda tx: work(_ObservedTx(tx, unit)))
        unit.ended_with = frozenset(self._session.last_bookmarks().raw_values)
        return result

    def execute_read(self, work: Callable[..., Any]) -> Any:
        return self._execute("READ", self._session.execute_read, work)

    def execute_write(self, work: Callable[..., Any]) -> Any:
        return self._execute("WRITE", self._session.execute_write, work)


class ObservedDriver:
    """A driver that logs every unit of work its sessions run (single-threaded use)."""

    def __init__(self, driver: neo4j.Driver) -> None:
        self._driver = driver
        self.units: list[Unit] = []

    def session(self, **config: Any) -> _ObservedSession:
        return _ObservedSession(self._driver.session(**config), config, self.units)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)


@pytest.fixture
def observed(neo4j_target: Target, engine: Engine) -> Iterator[tuple[Engine, ObservedDriver]]:
    """An engine on the test database over a routing driver whose units of work are logged;
    no czar of its own (the test runs one), so nothing runs beside the flow."""
    target = Target(
        neo4j_target.source,
        routing_uri(neo4j_target.uri),
        neo4j_target.username,
        neo4j_target.password,
        neo4j_target.database,
    )
    driver = open_driver(target)
    assert isinstance(driver, neo4j.Neo4jDriver)  # the routing driver, not a direct one
    spy = ObservedDriver(driver)
    settings = EngineSettings(residency=ResidencySettings(czar_every_commits=0))
    with Engine(cast(neo4j.Driver, spy), target, settings=settings) as routed:
        yield routed, spy


def only_reads(name: str, query_type: str) -> bool:
    """Whether a catalog statement writes nothing: a read query, or a call of a DBMS procedure
    (the server's components, JMX), which ``EXPLAIN`` types as ``s`` like a schema command."""
    text = default_catalog()[name].text
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return query_type == "r" or (query_type == "s" and code.lstrip().startswith("CALL dbms."))


def names_by_text(catalog: Catalog) -> dict[str, str]:
    return {query.text: name for name, query in catalog.items()}


def run_flow(engine: Engine, boundary_id: str) -> None:
    """What a planner and an auditor do: connect, commit, read back, audit, score."""
    engine.check_schema()
    boundary = engine.boundary(boundary_id)
    goal_id, first_id = f"{boundary_id}-goal", f"{boundary_id}-db1"
    first = boundary.commit(
        proposal(
            boundary_id,
            entry("goal", "lookups", "User lookups answer within 10 ms", id=goal_id),
            entry(
                "decision",
                "datastore",
                "Use Postgres for the user table",
                id=first_id,
                derived_from=[{"entry_id": goal_id, "essential": True}],
            ),
            targets=["lookups", "datastore"],
        )
    )
    assert first.outcome == "commit", first
    second = boundary.commit(
        proposal(
            boundary_id,
            entry(
                "decision",
                "datastore",
                "Use Neo4j for the user graph",
                id=f"{boundary_id}-db2",
                supersedes=[{"entry_id": first_id, "reason": "queries are graph walks"}],
                derived_from=[{"entry_id": goal_id, "essential": True}],
            ),
            targets=["datastore"],
        )
    )
    assert second.outcome == "commit", second
    assert {e.id for e in boundary.window().entries} >= {goal_id, f"{boundary_id}-db2"}
    boundary.stats()
    assert boundary.why(f"{boundary_id}-db2") is not None
    assert boundary.recall("which datastore holds users", k=5)
    boundary.search("datastore", k=5)
    boundary.walk(first.set_id)
    boundary.as_of(1)
    boundary.history_index()
    boundary.run_czar()
    boundary.brief(since_seq=0)
    boundary.audit()
    engine.invariants(boundary_id)
    boundary.halts()
    store = AttentionStore(engine.executor)
    store.latest_score("specialist-a", boundary_id)
    store.outcome_counts(["specialist-a"], 20, boundary_id)


def test_every_statement_runs_in_the_access_mode_its_cypher_needs_with_the_writers_bookmarks(
    observed: tuple[Engine, ObservedDriver], boundary_id: str, explained: dict[str, Explained]
) -> None:
    routed, spy = observed
    run_flow(routed, boundary_id)
    units = spy.units
    texts = {text for unit in units for text in unit.statements}
    names = names_by_text(default_catalog())
    assert texts <= set(names), "a statement not from the catalog ran"
    types = {text: explained[names[text]].query_type for text in texts}

    def named(unit: Unit) -> list[tuple[str, str]]:
        return [(names[t], types[t]) for t in unit.statements]

    ran = {names[t] for t in texts}
    # The flow covers the engine's paths: the gate, the window, recall, search, why, history,
    # the czar, the audits and the attention scores.
    for expected in (
        "admin/schema_record",
        "gate/load_snapshot",
        "window/resident",
        "residency/why",
        "record/search_fulltext",
        "history/walk",
        "czar/expired_leases",
        "audits/ledger_integrity",
        "attention/score_in_boundary",
    ):
        assert expected in ran, (expected, sorted(ran))

    reads = [u for u in units if u.mode == "READ"]
    writes = [u for u in units if u.mode == "WRITE"]
    assert reads and writes
    # Every unit names the engine's database and shares the executor's one bookmark manager.
    assert {u.database for u in units} == {routed.executor.database}
    assert len({id(u.bookmark_manager) for u in units}) == 1
    assert units[0].bookmark_manager is not None

    # A READ unit writes nothing; a WRITE unit writes (or is a read kept on the leader on
    # purpose), so no read loads the leader and no write is sent to a secondary.
    for unit in reads:
        wrong = [(n, t) for n, t in named(unit) if not only_reads(n, t)]
        assert not wrong, f"sent as READ but writes: {wrong}"
    for unit in writes:
        pairs = named(unit)
        if all(only_reads(n, t) for n, t in pairs):
            assert {n for n, _ in pairs} <= READS_SENT_AS_WRITE, f"reads sent as WRITE: {pairs}"

    # Read-your-writes: the first read after each write starts from that write's bookmarks.
    checked = 0
    for i, unit in enumerate(units):
        if unit.mode != "WRITE":
            continue
        assert unit.ended_with, f"a write ended with no bookmark: {named(unit)}"
        later_read = next((u for u in units[i + 1 :] if u.mode == "READ"), None)
        if later_read is not None and units.index(later_read) == i + 1:
            assert unit.ended_with <= later_read.started_with, (named(unit), named(later_read))
            checked += 1
    assert checked >= 3, "the flow has too few reads right after a write to show read-your-writes"


def test_every_statement_the_code_reads_with_only_reads_and_every_one_it_writes_with_writes(
    explained: dict[str, Explained],
) -> None:
    """Catalog-wide, from the product's source: each statement named in a ``read(...)`` call
    (and every audit, which ``run_audit`` reads by folder) is read-only by the server's own
    account, and each named in a ``write(...)`` call writes (or is kept on the leader on
    purpose)."""
    catalog = default_catalog()
    calls: dict[str, set[str]] = {"read": set(), "write": set()}
    for path in PRODUCT.rglob("*.py"):
        for mode, name in CALL.findall(path.read_text(encoding="utf-8")):
            calls[mode].add(name)
    calls["read"] |= {q.name for q in catalog.under("audits")}
    assert calls["read"] | calls["write"] <= set(catalog), "a call names no catalog file"
    assert len(calls["read"]) > 50 and len(calls["write"]) > 10, calls
    writing = sorted(n for n in calls["read"] if not only_reads(n, explained[n].query_type))
    assert not writing, f"read through the READ path but write: {writing}"
    reading = sorted(n for n in calls["write"] if only_reads(n, explained[n].query_type))
    assert set(reading) <= READS_SENT_AS_WRITE, f"only read, yet sent as WRITE: {reading}"
