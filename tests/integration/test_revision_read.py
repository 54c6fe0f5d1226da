"""The gate's ``[on_revision]`` read seeks a slot's resident entries only (against the real
Neo4j): a key revised many times keeps every superseded entry in the record, and the read of its
(class, key) slot finds the one live resident entry without reading that history, so a commit's
cost does not grow with how often its keys were revised."""

from __future__ import annotations

from typing import Any

import neo4j

from kg_context.db.catalog import default_catalog
from kg_context.vocabulary import LIVE_STATUSES, STANDING_STATUSES, as_values
from tests.factories import entry, proposal

REVISIONS = 30


def _operators(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan, *(op for child in plan.get("children", []) for op in _operators(child))]


def test_the_revision_read_of_a_slot_reads_its_resident_entries_only(
    czar_free_engine: Any, driver: neo4j.Driver, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    ids = [f"{boundary_id}-d{i}" for i in range(REVISIONS)]
    for i, entry_id in enumerate(ids):  # each an undeclared revision the shipped rule supersedes
        decided = boundary.commit(
            proposal(boundary_id, entry(id=entry_id, key="chain", body=f"choice {i}"))
        )
        assert decided.outcome == "commit", decided
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    on_key = {r["id"]: (r["status"], r["resident"]) for r in rows if r["id"] in ids}
    assert len(on_key) == REVISIONS  # the history stays in the record
    assert [i for i, state in on_key.items() if state == ("live", True)] == [ids[-1]]

    summary = driver.execute_query(
        "PROFILE " + default_catalog()["gate/load_snapshot"].text,
        boundary_id=boundary_id,
        reads={
            "entry_ids": [],
            "superseded_ids": [],
            "set_ids": [],
            "standing": as_values(STANDING_STATUSES),
            "writer_ids": [],
            "receipt_ids": [],
            "foreign": [],
            "targets": [],
            "dependencies": [],
            "from_seq": 2**62,
            "taken_ids": [],
            "one_use_ids": [],
            "default_lease": 10,
            "slots": [{"class": "decision", "key": "chain"}],
            "live": as_values(LIVE_STATUSES),
        },
        database_=engine.executor.database,
    )
    assert [e["id"] for e in summary.records[0]["on_slots"]] == [ids[-1]]
    assert summary.summary.profile is not None
    seeks = [
        op
        for op in _operators(summary.summary.profile)
        if "Resident(boundary_id, key)" in str(op.get("args", {}).get("Details", ""))
    ]
    assert seeks, summary.summary.profile
    assert [op["rows"] for op in seeks] == [1]  # the live entry, not the key's 30
