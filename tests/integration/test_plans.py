"""Every catalog statement against the planner of the suite's server, whose store has grown:
EXPLAINed once (``tests/plans.py``), then read for what each plan must show. The parameters the
planner wants are the ones the catalog parsed; every lookup by id seeks the composite
uniqueness index; no per-boundary statement scans the whole database. (The same plans on an
empty store: ``test_schema.py``.)"""

from __future__ import annotations

from kg_context.db.catalog import default_catalog
from tests.integration.conftest import CATALOG_PLANS
from tests.plans import Explained, operators, per_boundary, unseeked_lookups

pytestmark = CATALOG_PLANS


def test_every_query_file_is_accepted_by_explain_with_the_params_we_parsed(
    explained: dict[str, Explained],
) -> None:
    """EXPLAIN each statement without values; the planner names the parameters it wants."""
    assert set(explained) == set(default_catalog())
    for name, one in explained.items():
        assert one.wanted == one.query.params, (name, one.wanted, one.query.params)


def test_every_lookup_by_id_seeks_the_composite_index(explained: dict[str, Explained]) -> None:
    """On the suite's server, whose store has grown: every lookup by id seeks the composite
    uniqueness index."""
    missed, checked = unseeked_lookups(explained)
    assert missed == []
    assert checked >= 40


# Label scans a per-boundary statement may still do: the constitutions are few. Boundaries are
# not (a shared database holds thousands): one boundary is found by its id, all of them only
# when no id is given (a CASE branch, not an operator of the plan).
SMALL_LABELS = (":Constitution",)
# Statements that read every node of a boundary whatever its label, by design: support for the
# tests' checks, never on a path of the engine or a surface.
WHOLE_DATABASE_CHECKS = {"boundary/fingerprint"}
SCANS = ("NodeByLabelScan", "AllNodesScan", "DirectedRelationshipTypeScan")


def test_per_boundary_statements_never_scan_the_whole_database(
    explained: dict[str, Explained],
) -> None:
    """EXPLAIN every statement that takes a ``boundary_id``: none scans every Entry, Set, Halt,
    Proposal or Writer of the database (an audit of one boundary in a database of many costs
    what that boundary holds). A filter that takes either no boundary or the node's boundary
    cannot use an index, so it was such a scan; the statements now find the boundary by its id
    (every boundary only when none is given) and seek that boundary's nodes."""
    scanning: dict[str, list[str]] = {}
    checked = 0
    for one in per_boundary(explained):
        if one.query.name in WHOLE_DATABASE_CHECKS:
            continue
        checked += 1
        scans = [
            str(op.get("args", {}).get("Details", ""))
            for op in operators(one.plan)
            if op["operatorType"].split("@")[0] in SCANS
        ]
        found = [d for d in scans if not any(small in d for small in SMALL_LABELS)]
        if found:
            scanning[one.query.name] = found
    assert scanning == {}
    assert checked >= 60
