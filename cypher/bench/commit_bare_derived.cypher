// Benchmark baseline (not product): provenance edges by a bare UNWIND.
UNWIND $rows AS row
MATCH (a:Entry {id: row.from}), (b:Entry {id: row.to})
CREATE (a)-[:DERIVED_FROM {essential: row.essential}]->(b)
