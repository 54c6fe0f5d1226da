"""Every catalog statement EXPLAINed once on a server, and what the tests read in its plan.

Planning is the server's most expensive work in the suite: the catalog's ~300 statements took
10 to 35 s of a busy server per pass, and five tests each made a pass of their own (two on the
suite's server, two on an empty store, one on the second server). The tests that check the
plans of one store now share one pass (``explain_catalog``, held by a module-scoped fixture):
the same EXPLAIN, the same plans, read for each test's own property: on the suite's server,
``test_plans.py`` and ``test_access_mode.py`` share one pass (``explained``, a session fixture of
``tests/integration/conftest.py``, their two files one worker's group)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import neo4j

from kg_context.db.catalog import Query, default_catalog
from kg_context.db.connection import Target
from tests.statement_text import id_lookups

# The planner names each parameter it was given no value for in a notification (01N60).
MISSING_PARAMS = re.compile(r"\$`([^`]+)`")
MISSING_PARAM_STATUS = "01N60"


@dataclass(frozen=True, slots=True)
class Explained:
    """One statement's EXPLAIN: its plan, the parameters the planner said it wants, and what
    the server says the statement does (``query_type``: ``r`` reads only, ``rw``/``w`` writes,
    ``s`` a schema command or a DBMS procedure)."""

    query: Query
    plan: dict[str, Any]
    wanted: frozenset[str]
    query_type: str


def explain_catalog(target: Target) -> dict[str, Explained]:
    """EXPLAIN every catalog statement on ``target`` (nothing runs), by name."""
    explained: dict[str, Explained] = {}
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as driver:
        for name, query in sorted(default_catalog().items()):
            summary = driver.execute_query(
                "EXPLAIN " + query.text, database_=target.database
            ).summary
            assert summary.plan is not None, name
            wanted: set[str] = set()
            for status in summary.gql_status_objects:
                if status.gql_status == MISSING_PARAM_STATUS:
                    wanted |= set(MISSING_PARAMS.findall(status.status_description))
            explained[name] = Explained(
                query, summary.plan, frozenset(wanted), str(summary.query_type)
            )
    return explained


def operators(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every operator of a plan, depth first."""
    yield plan
    for child in plan.get("children", []):
        yield from operators(child)


def unseeked_lookups(explained: dict[str, Explained]) -> tuple[list[tuple[str, str]], int]:
    """Every statement that looks an Entry/Set/Proposal/Writer up by id (a Target by key): the
    (statement, variable) found other than by a seek of the (boundary_id, id) uniqueness index
    (another index, or a scan of that one), and how many were checked."""
    missed, checked = [], 0
    for name, one in explained.items():
        lookups = id_lookups(one.query)
        if not lookups:
            continue
        found = [
            (op["operatorType"], str(op.get("args", {}).get("Details", "")))
            for op in operators(one.plan)
        ]
        for variable, label in lookups:
            key = "key" if label == "Target" else "id"
            index = f"{variable}:{label}(boundary_id, {key})"
            using = [kind for kind, details in found if index in details]
            if not using or not all("Seek" in kind for kind in using):  # a scan reads it all
                missed.append((name, variable))
            checked += 1
    return missed, checked


def per_boundary(explained: dict[str, Explained]) -> Iterator[Explained]:
    """The statements that take a ``boundary_id`` (schema commands aside)."""
    for one in explained.values():
        if "boundary_id" in one.query.params and not one.query.is_schema:
            yield one
