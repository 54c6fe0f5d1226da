// Benchmark baseline (not product): supersession edges and status flips by a bare UNWIND.
UNWIND $rows AS row
MATCH (new:Entry {id: row.from}), (old:Entry {id: row.to})
CREATE (new)-[:SUPERSEDES {reason: row.reason}]->(old)
SET old.status = 'superseded', old.resident = false
