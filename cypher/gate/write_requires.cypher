// Declared residency edges: (:Entry)-[:REQUIRES {policy, lease_until_seq, needs}]->(:Entry).
UNWIND $requires AS row
MATCH (dependent:Entry {boundary_id: $boundary_id, id: row.from}),
      (required:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (dependent)-[:REQUIRES {policy: row.policy, lease_until_seq: row.lease_until_seq,
                               needs: row.needs, set_seq: row.set_seq}]->(required)
