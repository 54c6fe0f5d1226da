"""A database without the schema never runs unguarded. ``Engine.connect()``
reads the schema record: it applies what differs (``KG_CONTEXT_SCHEMA_AUTO_APPLY``) or refuses in
one line naming ``kg-context schema apply``; a database written under schema version 1 (ids
unique across the database) upgrades to version 2 (ids unique within their boundary) with its
data intact. That every lookup by id seeks the composite index, and that no statement reads a
whole boundary to reach a neighbour, is EXPLAINed here on an empty store (on the suite's grown
store: ``test_plans.py``).

These tests own their server: a fresh local Neo4j on its own ports (the shared one is never
reconfigured), stopped at the end.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kg_context.db import local_server as neo4j_local
from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver, target_for
from kg_context.db.executor import Neo4jExecutor
from kg_context.db.schema import (
    OBSOLETE,
    SCHEMA_VERSION,
    RuleKind,
    add_essential_edges,
    apply_schema,
    drop_empty_lists,
    package_rules,
    shorten_boundary_tokens,
)
from kg_context.db.text_index import boundary_fulltext_query, boundary_token
from kg_context.engine import Engine
from kg_context.errors import SchemaError
from kg_context.record import history
from kg_context.record.search import embed_pending, vector_search
from kg_context.record.thoughts import search_thoughts
from kg_context.record.walk import walk
from kg_context.settings import EngineSettings, Neo4jSettings, SchemaSettings
from kg_context.text.embeddings import get_embedder
from tests.factories import entry, proposal
from tests.plans import Explained, explain_catalog, per_boundary, unseeked_lookups
from tests.servers import own_server

FIXTURES = Path(__file__).parent / "schema_fixtures"
NEW_RULES = {
    "entry_id_in_boundary_unique": ("Entry", ["boundary_id", "id"]),
    "set_id_in_boundary_unique": ("Set", ["boundary_id", "id"]),
    "proposal_id_in_boundary_unique": ("Proposal", ["boundary_id", "id"]),
    "writer_id_in_boundary_unique": ("Writer", ["boundary_id", "id"]),
    "target_key_in_boundary_unique": ("Target", ["boundary_id", "key"]),
}


def _settings(auto_apply: bool) -> EngineSettings:
    return EngineSettings(schema=SchemaSettings(auto_apply=auto_apply))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """A Neo4j where `kg-context schema apply` never ran (its own server, on free ports)."""
    settings = own_server(tmp_path_factory.mktemp("schema-neo4j"))
    neo4j_local.start(settings)
    try:
        yield target_for("local", Neo4jSettings(), settings)
    finally:
        neo4j_local.stop(settings)


@pytest.fixture(scope="module")
def fixtures(fresh: Target) -> Iterator[Neo4jExecutor]:
    with open_driver(fresh) as driver:
        yield Neo4jExecutor(
            driver, database=fresh.database, uri=fresh.uri, catalog=Catalog(FIXTURES)
        )


def _constraints(fixtures: Neo4jExecutor) -> dict[str, tuple[str, list[str]]]:
    return {r["name"]: (r["label"], r["properties"]) for r in fixtures.read("fixture/constraints")}


def test_connect_refuses_a_database_without_the_schema_in_one_line(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    with pytest.raises(SchemaError) as refused:
        Engine.connect(fresh, settings=_settings(auto_apply=False))
    message = str(refused.value)
    assert "\n" not in message
    assert "run `kg-context schema apply`" in message
    assert "has no kg-context schema record" in message
    assert _constraints(fixtures) == {}  # refused: nothing was applied


def test_a_version_1_database_with_data_upgrades_on_connect(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Schema version 1 (global id constraints) and data written under it, as the shared dev
    server holds: connecting applies version 2 (composite constraints hold for the existing
    data), drops the replaced rules (never data), records the version; then two boundaries
    use the old boundary's ids again."""
    for query in Catalog(FIXTURES).under("v1"):
        fixtures.write(query.name)
    old = "v1-team"
    fixtures.write(
        "fixture/old_data",
        boundary_id=old,
        set_id="s-1",
        entry_id="e-1",
        proposal_id="p-1",
        writer_id="planner",
        target="db-schema",
    )
    before = fixtures.read("fixture/counts")[0]
    replaced = {name for kind, name in OBSOLETE if kind is RuleKind.CONSTRAINT}
    assert replaced <= set(_constraints(fixtures))

    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        constraints = _constraints(fixtures)
        for name, shape in NEW_RULES.items():
            assert constraints[name] == shape
        assert not {name for _, name in OBSOLETE} & set(constraints)
        indexes = {row["name"]: row for row in engine.executor.read("admin/show_indexes")}
        assert {rule.name for rule in package_rules()} <= set(indexes)
        assert all(row["state"] == "ONLINE" for row in indexes.values())
        assert "halt_set_id" not in indexes
        after = fixtures.read("fixture/counts")[0]
        assert {**after, "schema_records": 0} == before  # nothing deleted, one record added
        assert after["schema_records"] == 1
        (record,) = fixtures.read("fixture/record")
        assert record["version"] == SCHEMA_VERSION
        assert sorted(record["rules"]) == sorted(rule.line for rule in package_rules())

        # version 4: the old entry got its boundary token (the fulltext index filters by it)
        # and its embedding marker, so the boundary's search finds it
        hits = history.search(engine.boundary(old, create=False), "v1 db", k=5)
        assert [h.entry_id for h in hits] == ["e-1"]

        # the old boundary's ids, in two new boundaries, through the gate
        for b in ("v2-a", "v2-b"):
            decision = engine.boundary(b).commit(
                proposal(
                    b,
                    entry(key="db", body="v2", id="e-1"),
                    pid="p-1",
                    set_id="s-1",
                    writer_id="planner",
                    targets=["db-schema"],
                )
            )
            assert (decision.outcome, decision.set_id, decision.entry_ids) == (
                "commit",
                "s-1",
                ("e-1",),
            )


def test_a_current_database_is_one_read_and_no_write(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    (before,) = fixtures.read("fixture/record")
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        counts = engine.executor.retry_counts()
        assert engine.check_schema().current
        assert engine.executor.retry_counts().units - counts.units == 1  # the record, read once
    (after,) = fixtures.read("fixture/record")
    assert after["applied_at"] == before["applied_at"]


def test_a_changed_rule_is_replaced_and_only_it(fresh: Target, fixtures: Neo4jExecutor) -> None:
    rules = package_rules()
    changed = next(r for r in rules if r.name == "entry_boundary_key")
    recorded = [r.line if r is not changed else f"{r.name}=index:0000" for r in rules]
    fixtures.write("fixture/set_record", version=SCHEMA_VERSION, rules=recorded)
    with pytest.raises(
        SchemaError,
        match=rf"records schema version {SCHEMA_VERSION}, 1 changed .*; "
        r"run `kg-context schema apply`",
    ):
        Engine.connect(fresh, settings=_settings(auto_apply=False))
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        assert engine.check_schema().current
    (record,) = fixtures.read("fixture/record")
    assert changed.line in record["rules"]


def test_a_newer_schema_is_refused_even_with_auto_apply(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    lines = [r.line for r in package_rules()]
    fixtures.write("fixture/set_record", version=SCHEMA_VERSION + 1, rules=lines)
    try:
        with pytest.raises(SchemaError, match="newer than this kg-context's"):
            Engine.connect(fresh, settings=_settings(auto_apply=True))
    finally:
        fixtures.write("fixture/set_record", version=SCHEMA_VERSION, rules=lines)


def test_concurrent_connects_to_an_outdated_database_all_apply_safely(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Eight engines connect at once to a database recording version 1 and missing two rules:
    each applies (creates that race to "already exists", drops IF EXISTS), none fails, the
    rules are back, one record results."""
    with Engine.connect(fresh, check_schema=False) as engine:
        engine.executor.write("admin/drop_index", name="entry_boundary_key")
        engine.executor.write("admin/drop_constraint", name="writer_id_in_boundary_unique")
    fixtures.write("fixture/set_record", version=1, rules=[])
    assert "writer_id_in_boundary_unique" not in _constraints(fixtures)
    failures: list[BaseException] = []

    def connect() -> None:
        try:
            Engine.connect(fresh, settings=_settings(auto_apply=True)).close()
        except BaseException as err:  # noqa: BLE001 - collected and asserted below
            failures.append(err)

    threads = [threading.Thread(target=connect) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert fixtures.read("fixture/counts")[0]["schema_records"] == 1
    (record,) = fixtures.read("fixture/record")
    assert record["version"] == SCHEMA_VERSION
    constraints = _constraints(fixtures)
    assert constraints["writer_id_in_boundary_unique"] == NEW_RULES["writer_id_in_boundary_unique"]
    assert not {name for _, name in OBSOLETE} & set(constraints)
    with Engine.connect(fresh, check_schema=False) as engine:
        indexes = {row["name"] for row in engine.executor.read("admin/show_indexes")}
    assert "entry_boundary_key" in indexes


def test_a_version_7_database_drops_the_indexes_version_8_no_longer_has(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Version 7's shared vector index and the range indexes no statement seeks by are dropped
    on connect; the data they indexed stays (an entry keeps its embedding, and its boundary is
    still searched by it)."""
    for query in [*Catalog(FIXTURES).under("v7"), *Catalog(FIXTURES).under("v9")]:
        fixtures.write(query.name)
    fixtures.write("fixture/set_record", version=7, rules=[r.line for r in package_rules()])
    dropped = {name for kind, name in OBSOLETE if kind is RuleKind.INDEX} - {"halt_set_id"}
    with Engine.connect(fresh, check_schema=False) as engine:
        indexes = {row["name"] for row in engine.executor.read("admin/show_indexes")}
        assert dropped <= indexes
        b = "v7-team"
        assert (
            engine.boundary(b)
            .commit(
                proposal(b, entry(key="ledger", body="payments ledger on a graph"), writer_id="w")
            )
            .outcome
            == "commit"
        )
        embed_pending(engine.boundary(b, create=False))
    before = fixtures.read("fixture/counts")[0]
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        indexes = {row["name"] for row in engine.executor.read("admin/show_indexes")}
        assert not dropped & indexes
        assert {rule.name for rule in package_rules()} <= indexes
        assert fixtures.read("fixture/counts")[0] == before  # nothing deleted
        (record,) = fixtures.read("fixture/record")
        assert record["version"] == SCHEMA_VERSION
        boundary = engine.boundary(b, create=False)
        vector = get_embedder().encode(["payments ledger"])[0]
        found = vector_search(boundary, vector, 1)
        assert found.strategy == "exact" and len(found.rows) == 1


def test_a_version_8_database_gains_the_essential_edges_beside_its_derivations(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Version 9 adds ESSENTIALLY_DERIVED_FROM beside each essential DERIVED_FROM between two
    entries of one boundary written before it (what the invalidation walk follows for the
    at-risk reach): none beside a supporting one or one into another boundary, and every
    DERIVED_FROM stays as it was. The walk then grades the old derivations."""
    team, other = "v8-team", "v8-other"
    fixtures.write("fixture/old_derivations", boundary_id=team, other=other)
    fixtures.write("fixture/set_record", version=8, rules=[r.line for r in package_rules()])
    before = fixtures.read("fixture/derivations", boundary_ids=[team, other])
    assert {row["type"] for row in before} == {"DERIVED_FROM"}
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        after = fixtures.read("fixture/derivations", boundary_ids=[team, other])
        (record,) = fixtures.read("fixture/record")
        assert record["version"] == SCHEMA_VERSION
        found = walk(engine.executor, team, {"a": "live"}, max_depth=64, max_nodes=100)
        assert add_essential_edges(engine.executor) == 0  # once only: nothing is doubled
    assert [row for row in after if row["type"] == "DERIVED_FROM"] == before
    assert [
        (row["boundary_id"], row["from"], row["to"])
        for row in after
        if row["type"] == "ESSENTIALLY_DERIVED_FROM"
    ] == [(team, "c", "a"), (team, "d", "c")]
    assert (found.essential, found.supporting) == ({"c": "a", "d": "a"}, {"e": "a"})


def test_a_version_9_database_drops_the_proposal_node_vector_index_and_cuts_its_tokens(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Version 10 drops the vector index over ProposalNode embeddings (no statement queried it)
    and cuts the boundary tokens of entries and thoughts written before it to the token the gate
    writes now: the fulltext searches of the boundary still find both, nothing is deleted (the
    old ProposalNode keeps its embedding), and the step runs once."""
    b = "v9-team"
    old = "b" + hashlib.sha256(b.encode("utf-8")).hexdigest()
    for query in Catalog(FIXTURES).under("v9"):
        fixtures.write(query.name)
    fixtures.write("fixture/old_tokens", boundary_id=b, token=old)
    fixtures.write("fixture/set_record", version=9, rules=[r.line for r in package_rules()])
    before = fixtures.read("fixture/counts")[0]
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        indexes = {row["name"] for row in engine.executor.read("admin/show_indexes")}
        assert "proposal_node_embedding_vector" not in indexes
        (record,) = fixtures.read("fixture/record")
        assert record["version"] == SCHEMA_VERSION
        tokens = fixtures.read("fixture/tokens", boundary_id=b)
        assert [(r["token"], r["embedded"]) for r in tokens] == [
            (boundary_token(b), False),
            (boundary_token(b), True),
        ]
        assert shorten_boundary_tokens(engine.executor) == 0  # once only
        boundary = engine.boundary(b, create=False)
        found = engine.executor.read(
            "record/search_fulltext",
            query=boundary_fulltext_query(b, "payments ledger"),
            boundary_id=b,
            k=5,
        )
        assert [row["entry_id"] for row in found] == ["old-entry"]
        thoughts = search_thoughts(boundary, "payments ledger")
        assert [t.thought_id for t in thoughts] == [f"{b}/old-thought"]
    assert fixtures.read("fixture/counts")[0] == before  # nothing deleted


def test_a_version_10_database_drops_its_empty_lists(
    fresh: Target, fixtures: Neo4jExecutor
) -> None:
    """Version 11 removes the empty lists the gate no longer stores (a set's lineage and
    dependencies, a proposal's targets) from what was written before it; the non-empty ones,
    and a set's targets (sealed into the ledger), stay as written; the step runs once and
    deletes nothing."""
    b = "v10-team"
    fixtures.write("fixture/old_empty_lists", boundary_id=b)
    fixtures.write("fixture/set_record", version=10, rules=[r.line for r in package_rules()])
    before = fixtures.read("fixture/counts")[0]
    with Engine.connect(fresh, settings=_settings(auto_apply=True)) as engine:
        (record,) = fixtures.read("fixture/record")
        assert record["version"] == SCHEMA_VERSION
        assert drop_empty_lists(engine.executor) == 0  # once only
    lists = {row["id"]: dict(row) for row in fixtures.read("fixture/lists", boundary_id=b)}
    assert lists == {
        "empty-set": {"id": "empty-set", "targets": [], "lineage": None, "dependencies": None},
        "full-set": {
            "id": "full-set",
            "targets": ["t"],
            "lineage": ["empty-set"],
            "dependencies": ["e1"],
        },
        "no-target": {"id": "no-target", "targets": None, "lineage": None, "dependencies": None},
        "one-target": {"id": "one-target", "targets": ["t"], "lineage": None, "dependencies": None},
    }
    assert fixtures.read("fixture/counts")[0] == before  # nothing deleted


@pytest.fixture(scope="module")
def empty_store_plans(fresh: Target, fixtures: Neo4jExecutor) -> dict[str, Explained]:
    """Every statement EXPLAINed once on the module's own server with the schema applied and
    next to nothing stored: the statistics a new database plans on (the tests below read the
    same plans, each for its own property)."""
    with Engine.connect(fresh, check_schema=False) as connected:
        apply_schema(connected.executor)
    assert fixtures.read("fixture/counts")[0]["entries"] < 100  # next to nothing
    return explain_catalog(fresh)


def test_every_lookup_by_id_seeks_the_composite_index_on_an_empty_store(
    empty_store_plans: dict[str, Explained],
) -> None:
    """On a store that holds next to nothing, as a new database does: the plans Neo4j makes
    there are kept until its statistics move (an hour, on the suite's servers), and a planner
    that sees no rows anywhere found as cheap a seek on ``Entry(boundary_id)`` and a filter on
    the id, which reads every entry of the boundary for each one looked up: a first import of
    10,000 entries took 317 s against 9.3 s. The statements name the index they mean
    (``tests/integration/test_plans.py`` checks the same on the suite's grown store)."""
    missed, checked = unseeked_lookups(empty_store_plans)
    assert missed == []
    assert checked >= 40


# Operators that join a node found on their right-hand side to one bound on their left: fed by a
# non-unique seek over a whole boundary's index, they read every node of the boundary for each row.
JOINS_INTO = ("Expand(Into)", "OptionalExpand(Into)", "VarLengthExpand(Into)")


def _boundary_seeks_under_joins(plan: dict[str, Any], under: bool = False) -> Iterator[str]:
    operator = plan["operatorType"].split("@")[0]
    details = str(plan.get("args", {}).get("Details", ""))
    if under and operator == "NodeIndexSeek" and "boundary_id" in details:
        yield details.split(" WHERE", 1)[0]
    for child in plan.get("children", []):
        yield from _boundary_seeks_under_joins(child, under or operator in JOINS_INTO)


def test_no_statement_reads_a_whole_boundary_to_reach_a_neighbour_on_an_empty_store(
    empty_store_plans: dict[str, Explained],
) -> None:
    """On a store that holds next to nothing, the planner costs every seek alike, and for a node
    reached over a relationship (a child over DERIVED_FROM, a dependency over REQUIRES, the set
    that TRANSITIONED an entry) it chose to seek the boundary's whole index and check the edge
    to each node found (Expand(Into)), a plan it keeps while the store grows: ten statements did,
    the invalidation walk's page and the window's read among them. A neighbour is matched
    without its label (the relationship's type says what it is), so no index can find it and
    the planner can only expand to it; EXPLAINed here on an empty store."""
    reading: dict[str, list[str]] = {}
    checked = 0
    for one in per_boundary(empty_store_plans):
        checked += 1
        found = list(_boundary_seeks_under_joins(one.plan))
        if found:
            reading[one.query.name] = found
    assert reading == {}
    assert checked >= 60
