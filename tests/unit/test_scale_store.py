"""The scale benchmark's store breakdown: each file and index folder of a local server's data
directory counted under its component, the boundaries' own vector indexes as one line."""

from __future__ import annotations

from pathlib import Path

from benchmarks._scale_store import (
    BOUNDARY_VECTOR_INDEXES,
    describe,
    index_names,
    store_breakdown,
)
from kg_context.record.vector_index import boundary_vector_label


def _file(path: Path, size: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)


def test_every_byte_is_counted_once_under_its_component(tmp_path: Path) -> None:
    data = tmp_path / "data"
    db = data / "databases" / "neo4j"
    _file(db / "neostore.nodestore.db", 100)
    _file(db / "neostore.nodestore.db.labels", 10)
    _file(db / "neostore.relationshipstore.db", 200)
    _file(db / "neostore.relationshipgroupstore.db", 20)
    _file(db / "neostore.propertystore.db", 300)
    _file(db / "neostore.propertystore.db.id", 30)
    _file(db / "neostore.propertystore.db.strings", 60)
    _file(db / "neostore.propertystore.db.arrays", 90)
    _file(db / "neostore.propertystore.db.arrays.id", 9)
    _file(db / "neostore.propertystore.db.index.keys", 4)
    _file(db / "neostore.labeltokenstore.db", 5)
    _file(db / "schema" / "index" / "range-1.0" / "3" / "index-3", 40)
    _file(db / "schema" / "index" / "vector-2.0" / "7" / "a" / "b", 70)
    _file(db / "schema" / "index" / "vector-2.0" / "8" / "c", 80)
    _file(db / "schema" / "index" / "fulltext-1.0" / "9" / "d", 1)  # not in SHOW INDEXES
    _file(data / "transactions" / "neo4j" / "neostore.transaction.db.0", 1000)
    _file(data / "transactions" / "system" / "neostore.transaction.db.0", 500)
    _file(data / "databases" / "system" / "neostore.nodestore.db", 50)
    _file(data / "dbms" / "auth.ini", 3)
    names = index_names(
        [
            {"id": 3, "name": "entry_boundary_id", "type": "RANGE"},
            {"id": 7, "name": boundary_vector_label("a"), "type": "VECTOR"},
            {"id": 8, "name": boundary_vector_label("b"), "type": "VECTOR"},
        ]
    )
    sizes = store_breakdown(tmp_path, names)
    assert sizes == {
        "node store": 110,
        "relationship store": 220,
        "property store: records": 330,
        "property store: strings": 60,
        "property store: arrays": 99,
        "property store: keys": 4,
        "other stores": 5,
        "index:entry_boundary_id": 40,
        BOUNDARY_VECTOR_INDEXES: 150,
        "index:fulltext-1.0/9": 1,
        "transaction logs": 1000,
        "system database": 50,
        "system transaction logs": 500,
        "the rest of the data directory": 3,
    }
    lines = describe(sizes, sets=1, vector_indexes=2)
    assert lines[1].startswith("transaction logs") and lines[-1].startswith("total")
    assert any(line.startswith(f"{BOUNDARY_VECTOR_INDEXES} (2)") for line in lines)
