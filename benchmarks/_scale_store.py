"""The store on disk, component by component: what each set of the scale build costs in bytes.

``store_breakdown`` walks a local server's data directory (``<home>/data``) and sums the files
of each component of the database (``neo4j``): the node and relationship stores, the property
store by file (its records, its strings, its arrays, its keys), the other small stores (tokens,
the schema store, counts), each index (its folder ``schema/index/<provider>/<id>``, named from
``SHOW INDEXES``; the boundaries' own vector indexes are summed as one line, with their count)
and the transaction logs; the system database, its transaction logs and the rest of the data
directory are one line each. Sizes are apparent sizes (``du -sb``'s), so preallocated
transaction log files count at their full length.

    python -m benchmarks._scale_store --neo4j-home .kg-context/neo4j --sets 10000
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from benchmarks._common import open_engine
from kg_context.record.vector_index import boundary_vector_label

__all__ = ["BOUNDARY_VECTOR_INDEXES", "describe", "index_names", "store_breakdown"]

DATABASE = "neo4j"
BOUNDARY_VECTOR_INDEXES = "index:boundary vector indexes"
_VECTOR_PREFIX = boundary_vector_label("").split("_")[0] + "_"
_STORES = (  # file name prefix -> component (the first match wins)
    ("neostore.nodestore.", "node store"),
    ("neostore.relationshipstore.", "relationship store"),
    ("neostore.relationshipgroupstore.", "relationship store"),
    # The property store by file: the property records (four 8-byte blocks each: small values
    # inline), the strings and arrays too long to inline (128-byte dynamic records), the keys.
    ("neostore.propertystore.db.strings", "property store: strings"),
    ("neostore.propertystore.db.arrays", "property store: arrays"),
    ("neostore.propertystore.db.index", "property store: keys"),
    ("neostore.propertystore.", "property store: records"),
)


def _bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def index_names(rows: Iterable[Mapping[str, object]]) -> dict[str, str]:
    """Each index's folder name (its id) -> the component it is counted under."""
    names = {}
    for row in rows:
        name = str(row["name"])
        vector = str(row["type"]) == "VECTOR" and name.startswith(_VECTOR_PREFIX)
        names[str(row["id"])] = BOUNDARY_VECTOR_INDEXES if vector else f"index:{name}"
    return names


def store_breakdown(home: Path, indexes: Mapping[str, str]) -> dict[str, int]:
    """Bytes on disk per component of the server at ``home`` (``indexes``: ``index_names``)."""
    data = home / "data"
    sizes: dict[str, int] = {}

    def add(component: str, n: int) -> None:
        sizes[component] = sizes.get(component, 0) + n

    database = data / "databases" / DATABASE
    for path in sorted(database.iterdir()) if database.exists() else []:
        if path.name == "schema":
            continue
        component = next((c for prefix, c in _STORES if path.name.startswith(prefix)), None)
        add(component or "other stores", _bytes(path))
    index_root = database / "schema" / "index"
    for provider in sorted(index_root.iterdir()) if index_root.exists() else []:
        for folder in sorted(provider.iterdir()):
            add(indexes.get(folder.name, f"index:{provider.name}/{folder.name}"), _bytes(folder))
    rest = _bytes(database / "schema") - sum(v for k, v in sizes.items() if k.startswith("index:"))
    if rest:
        add("other stores", rest)
    add("transaction logs", _bytes(data / "transactions" / DATABASE))
    add("system database", _bytes(data / "databases" / "system"))
    add("system transaction logs", _bytes(data / "transactions" / "system"))
    add("the rest of the data directory", _bytes(data) - sum(sizes.values()))
    return sizes


def describe(sizes: Mapping[str, int], sets: int, vector_indexes: int = 0) -> list[str]:
    """One line per component, largest first: bytes, KB per set and share of the total."""
    total = sum(sizes.values())
    lines = [f"{'component':<48} {'MB':>10} {'KB/set':>9} {'share':>6}"]
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
        label = name
        if name == BOUNDARY_VECTOR_INDEXES and vector_indexes:
            label = f"{name} ({vector_indexes})"
        per_set = n / sets / 1000 if sets else 0.0
        lines.append(f"{label:<48} {n / 1e6:>10.1f} {per_set:>9.2f} {n / total:>6.1%}")
    per_set = total / sets / 1000 if sets else 0.0
    lines.append(f"{'total':<48} {total / 1e6:>10.1f} {per_set:>9.2f} {1:>6.0%}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neo4j-home", type=Path, required=True, help="a local server's home")
    parser.add_argument("--sets", type=int, default=0, help="committed sets, for KB per set")
    args = parser.parse_args(argv)
    engine, _ = open_engine("store")
    with engine:
        rows = engine.executor.read("bench/store_indexes")
    names = index_names(rows)
    sizes = store_breakdown(args.neo4j_home, names)
    vectors = sum(1 for v in names.values() if v == BOUNDARY_VECTOR_INDEXES)
    print("\n".join(describe(sizes, args.sets, vectors)))


if __name__ == "__main__":
    main(sys.argv[1:])
