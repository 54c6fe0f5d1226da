// Benchmark baseline (not product): supersession edges and status flips by a bare UNWIND.
UNWIND $rows AS row
MATCH (new:Entry {boundary_id: $boundary_id, id: row.from}),
      (old:Entry {boundary_id: $boundary_id, id: row.to})
  USING INDEX SEEK new:Entry(boundary_id, id)
  USING INDEX SEEK old:Entry(boundary_id, id)
CREATE (new)-[:SUPERSEDES {reason: row.reason}]->(old)
SET old.status = 'superseded', old.resident = false
