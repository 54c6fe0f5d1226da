// Benchmark baseline (not product): provenance edges by a bare UNWIND.
UNWIND $rows AS row
MATCH (a:Entry {boundary_id: $boundary_id, id: row.from}),
      (b:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (a)-[:DERIVED_FROM {essential: row.essential}]->(b)
