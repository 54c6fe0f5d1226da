// Benchmark baseline (not product): residency edges by a bare UNWIND.
UNWIND $rows AS row
MATCH (a:Entry {boundary_id: $boundary_id, id: row.from}),
      (b:Entry {boundary_id: $boundary_id, id: row.to})
  USING INDEX SEEK a:Entry(boundary_id, id)
  USING INDEX SEEK b:Entry(boundary_id, id)
CREATE (a)-[:REQUIRES {policy: row.policy, lease_until_seq: row.lease_until_seq}]->(b)
