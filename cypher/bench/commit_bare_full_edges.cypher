// Benchmark baseline (not product): the gate's edges between entries by bare UNWINDs in one
// statement: DERIVED_FROM, REQUIRES, and SUPERSEDES with the status flip of the old entry (its
// labels kept in step).
CALL {
  UNWIND $derived AS row
  MATCH (a:Entry {boundary_id: $boundary_id, id: row.from}),
        (b:Entry {boundary_id: $boundary_id, id: row.to})
    USING INDEX SEEK a:Entry(boundary_id, id)
    USING INDEX SEEK b:Entry(boundary_id, id)
  CREATE (a)-[:DERIVED_FROM {essential: row.essential}]->(b)
}
CALL {
  UNWIND $requires AS row
  MATCH (a:Entry {boundary_id: $boundary_id, id: row.from}),
        (b:Entry {boundary_id: $boundary_id, id: row.to})
    USING INDEX SEEK a:Entry(boundary_id, id)
    USING INDEX SEEK b:Entry(boundary_id, id)
  CREATE (a)-[:REQUIRES {policy: row.policy, lease_until_seq: row.lease_until_seq,
                         lease_sets: row.lease_sets, needs: row.needs, set_seq: row.set_seq,
                         set_work: row.set_work}]->(b)
}
CALL {
  UNWIND $supersedes AS row
  MATCH (new:Entry {boundary_id: $boundary_id, id: row.from}),
        (old:Entry {boundary_id: $boundary_id, id: row.to})
    USING INDEX SEEK new:Entry(boundary_id, id)
    USING INDEX SEEK old:Entry(boundary_id, id)
  CREATE (new)-[:SUPERSEDES {reason: row.reason, seq: row.seq, executed: true}]->(old)
  SET old.status = 'superseded', old.resident = false, old.superseded_by = row.from,
      old.superseded_at_seq = row.seq
  REMOVE old:Live:Resident
  SET old:Superseded
}
