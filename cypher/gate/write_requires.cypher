// Declared residency edges: (:Entry)-[:REQUIRES {policy, lease_until_seq, lease_sets, needs,
// set_seq, set_work}]->(:Entry). lease_until_seq counts the boundary's work (work_seq), not its
// seq: the czar's compaction sets do not age a lease.
UNWIND $requires AS row
MATCH (dependent:Entry {boundary_id: $boundary_id, id: row.from}),
      (required:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (dependent)-[:REQUIRES {policy: row.policy, lease_until_seq: row.lease_until_seq,
                               lease_sets: row.lease_sets, needs: row.needs,
                               set_seq: row.set_seq, set_work: row.set_work}]->(required)
