// Declared supersession: the edge, and (unless the boundary runs append-only) the status flip
// of the superseded entry out of the window. Nothing is deleted.
UNWIND $supersedes AS row
MATCH (new:Entry {id: row.from}), (old:Entry {id: row.to})
CREATE (new)-[:SUPERSEDES {reason: row.reason, seq: row.seq, executed: row.executed}]->(old)
WITH old, row
WHERE row.executed AND old.status = 'live'
SET old.status = 'superseded', old.resident = false, old.superseded_by = row.from,
    old.superseded_at_seq = row.seq
