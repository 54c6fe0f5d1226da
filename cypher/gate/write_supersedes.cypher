// Declared supersession: the edge, and (when the gate executed it: not append-only, target live)
// the status flip of the superseded entry out of the window, labels kept in step. Nothing is
// deleted.
UNWIND $supersedes AS row
MATCH (new:Entry {boundary_id: $boundary_id, id: row.from}),
      (old:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (new)-[:SUPERSEDES {reason: row.reason, seq: row.seq, executed: row.executed}]->(old)
WITH old, row
WHERE row.executed
SET old.status = 'superseded', old.resident = false, old.superseded_by = row.from,
    old.superseded_at_seq = row.seq
REMOVE old:Live:Revalidated:Resident
SET old:Superseded
