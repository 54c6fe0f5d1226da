"""The ledger walk of one set is typed, and its one JSON form is the rows ``history/walk`` returns.

``SetWalk`` holds tuples of frozen dataclasses, but ``as_dict()`` (what the CLI's ``--json``, the
HTTP body and the MCP ``history`` result carry) gives each list item exactly the keys of its map
in the Cypher file, ``class``, ``from`` and ``to`` included, sorted as the walk sorts them.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from kg_context.db.catalog import default_catalog
from kg_context.record.history import (
    WalkEntry,
    WalkLink,
    WalkTransition,
    walk_from_row,
)

_SUPERSEDED = {
    "entry": "e-3",
    "other": "e-1",
    "reason": "replaced",
    "executed": True,
    "set_id": "s-1",
    "seq": 1,
    "status": "superseded",
}
_DEPENDENCY = {
    "entry": "e-3",
    "other": "e-2",
    "edge": "DERIVED_FROM",
    "essential": True,
    "policy": None,
    "set_id": "s-2",
    "seq": 2,
    "status": "live",
}
ROW: dict[str, Any] = {
    "set_id": "s-3",
    "boundary_id": "b",
    "seq": 3,
    "status": "ratified",
    "kind": None,
    "writer_id": "w",
    "summary": None,
    "previous_set_id": "s-2",
    "next_set_id": "s-4",
    "decided": [
        {"entry": "e-4", "class": "plan", "key": "p", "status": "live", "resident": False},
        {"entry": "e-3", "class": "decision", "key": "db", "status": "live", "resident": True},
    ],
    "superseded": [_SUPERSEDED],
    "depended_on": [_DEPENDENCY, {**_DEPENDENCY, "entry": "e-4", "edge": "REQUIRES"}],
    "transitioned": [
        {
            "entry": "e-0",
            "from": "live",
            "to": "retired",
            "reason": "stale",
            "justification": None,
            "set_id": "s-0",
            "seq": 0,
        }
    ],
    "superseded_by": [
        {**_SUPERSEDED, "entry": "e-4", "other": "e-9", "set_id": "s-9", "seq": 9},
        {**_SUPERSEDED, "entry": "e-3", "other": "e-5", "set_id": "s-5", "seq": 5},
    ],
    "transitioned_later": [
        {
            "entry": "e-3",
            "from": "live",
            "to": "challenged",
            "reason": "contradicted",
            "set_id": "s-6",
            "seq": 6,
            "kind": "blast_radius",
        }
    ],
    "depended_on_by": [{**_DEPENDENCY, "entry": "e-3", "other": "e-7", "set_id": "s-7", "seq": 7}],
}


def _by(rows: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: tuple(r[k] for k in keys))


def test_as_dict_is_the_rows_of_history_walk() -> None:
    row = copy.deepcopy(ROW)
    expected = {
        **row,
        "kind": "state",
        "summary": "",
        "decided": _by(row["decided"], "entry"),
        "depended_on": _by(row["depended_on"], "entry", "other"),
        "superseded_by": _by(row["superseded_by"], "seq", "other"),
        "earlier_sets": ["s-0", "s-1", "s-2"],
        "later_sets": ["s-5", "s-6", "s-7", "s-9"],
    }
    walked = walk_from_row(row)
    assert walked.as_dict() == expected
    assert row == ROW  # the row is read, not changed


def test_the_walk_holds_typed_items_in_walk_order() -> None:
    walked = walk_from_row(copy.deepcopy(ROW))
    assert walked.decided[0] == WalkEntry("e-3", "decision", "db", "live", True)
    assert [d.entry for d in walked.decided] == ["e-3", "e-4"]
    assert walked.depended_on[1].edge == "REQUIRES" and walked.depended_on[1].reason is None
    assert [s.other for s in walked.superseded_by] == ["e-5", "e-9"]
    assert isinstance(walked.superseded[0], WalkLink) and walked.superseded[0].edge is None
    later = walked.transitioned_later[0]
    assert isinstance(later, WalkTransition)
    assert (later.from_status, later.to_status, later.kind) == (
        "live",
        "challenged",
        "blast_radius",
    )
    assert "  moved e-0 live -> retired: stale" in walked.lines()


def test_the_sample_row_has_the_columns_and_keys_of_the_cypher_file() -> None:
    text = default_catalog()["history/walk"].text
    for name, items in ROW.items():
        assert re.search(rf"\bAS\s+{name}\b", text), name
        if isinstance(items, list):
            block = text.split(f"AS {name}")[0].rsplit("[(", 1)[1]
            keys = re.findall(r"[{,]\s*([a-z_]+):", block)
            assert all(list(item) == keys for item in items), name
