"""Ids are scoped to their boundary: every Cypher statement that looks an
``:Entry``, ``:Set``, ``:Proposal`` or ``:Writer`` up by ``id`` (a ``:Target`` by ``key``) also
names its ``boundary_id``, so the lookup can only ever find the boundary's own node, and seeks the
composite ``(boundary_id, id)`` uniqueness index (tests/integration/test_schema.py EXPLAINs them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg_context.db.catalog import Query, default_catalog
from tests.statement_text import SCOPED, id_lookups, lookups, statement_code

STATEMENTS = sorted(name for name in default_catalog() if not name.startswith("schema/"))


def q(text: str) -> Query:
    """A statement of the given text, for the checks' own tests."""
    return Query("t", text, frozenset(), Path("t.cypher"))


@pytest.mark.parametrize("name", STATEMENTS)
def test_every_lookup_by_id_names_the_boundary(name: str) -> None:
    assert lookups(default_catalog()[name]) == []


def test_the_check_finds_what_it_is_for() -> None:
    """The check itself: an unscoped map, an unscoped WHERE, a scoped one, ProposalNode apart."""
    assert lookups(q("MATCH (e:Entry {id: $id}) RETURN e")) == [
        ("e", "Entry", "{id: ...} without boundary_id")
    ]
    assert lookups(q("MATCH (s:Set) WHERE s.id IN $ids RETURN s")) == [
        ("s", "Set", "WHERE s.id without boundary_id")
    ]
    assert lookups(q("MERGE (t:Target {key: $k})")) == [
        ("t", "Target", "{key: ...} without boundary_id")
    ]
    assert lookups(q("MATCH (e:Entry {boundary_id: $b, id: $id}) RETURN e")) == []
    assert lookups(q("MATCH (e:Entry) WHERE e.id IN $ids AND e.boundary_id = $b RETURN e")) == []
    assert lookups(q("MATCH (p:ProposalNode {id: $id}) RETURN p")) == []
    assert id_lookups(q("MATCH (e:Entry {boundary_id: $b, id: $id}) RETURN e")) == [("e", "Entry")]
    assert len([n for n in STATEMENTS if id_lookups(default_catalog()[n])]) >= 25


# A lookup by id that starts a MATCH (or OPTIONAL MATCH) pattern, or a part of one after a comma:
# the node pattern names the boundary and the id inline. MERGE takes no hint (it seeks the
# uniqueness index it merges on).
_MATCHED = re.compile(
    r"(?:\bMATCH\s+(?:\w+\s*=\s*)?|,\s*)\((\w+):(" + "|".join(SCOPED) + r")\s*\{([^{}]*)\}\s*\)"
)


def unhinted(query: Query) -> list[str]:
    """The lookups by id a statement makes without naming the (boundary_id, id) uniqueness
    index to seek: ``USING INDEX SEEK v:Label(boundary_id, id)``, once for each such lookup of
    ``v``. A planner that sees no rows anywhere (a new database) costs a seek on
    ``Entry(boundary_id)`` and a filter on the id, or a scan of the whole unique index, as it
    costs the unique seek, and keeps that plan while the store grows: every lookup then reads
    every entry of its boundary, or of the database."""
    code = statement_code(query.text)
    wanted: dict[str, int] = {}
    for variable, label, props in _MATCHED.findall(code):
        key = SCOPED[label]
        if re.search(r"\bboundary_id\s*:", props) and re.search(rf"\b{key}\s*:", props):
            hint = f"USING INDEX SEEK {variable}:{label}(boundary_id, {key})"
            wanted[hint] = wanted.get(hint, 0) + 1
    return sorted(hint for hint, n in wanted.items() if code.count(hint) < n)


@pytest.mark.parametrize("name", STATEMENTS)
def test_every_lookup_by_id_names_the_index_it_seeks(name: str) -> None:
    assert unhinted(default_catalog()[name]) == []


def test_the_hint_check_finds_what_it_is_for() -> None:
    bare = "MATCH (e:Entry {boundary_id: $b, id: $id}) RETURN e"
    assert unhinted(q(bare)) == ["USING INDEX SEEK e:Entry(boundary_id, id)"]
    hinted = bare.replace(" RETURN", " USING INDEX SEEK e:Entry(boundary_id, id) RETURN")
    assert unhinted(q(hinted)) == []
    two = (
        "MATCH (a:Entry {boundary_id: $b, id: $x}), (s:Set {boundary_id: $b, id: $y})"
        " USING INDEX SEEK a:Entry(boundary_id, id) RETURN a, s"
    )
    assert unhinted(q(two)) == ["USING INDEX SEEK s:Set(boundary_id, id)"]
    again = hinted.replace("RETURN e", "MATCH (e:Entry {boundary_id: $b, id: $z}) RETURN e")
    assert unhinted(q(again)) == [
        "USING INDEX SEEK e:Entry(boundary_id, id)"
    ]  # one hint, two lookups
    assert unhinted(q("MERGE (t:Target {boundary_id: $b, key: $k})")) == []
    assert unhinted(q("MATCH (t:Target {boundary_id: $b, key: $k}) RETURN t")) == [
        "USING INDEX SEEK t:Target(boundary_id, key)"
    ]
    assert unhinted(q("MATCH (e:Entry {boundary_id: $b}) RETURN e")) == []  # not by id
