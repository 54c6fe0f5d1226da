// Declared edges to entries of other boundaries (the constitution allows the edge, and the
// target boundary's adoption receipt covers it): DERIVED_FROM or REQUIRES, each carrying the
// boundary it reaches into.
UNWIND $edges AS row
MATCH (child:Entry {boundary_id: $boundary_id, id: row.from})
MATCH (parent:Entry {boundary_id: row.to_boundary, id: row.to})
FOREACH (_ IN CASE WHEN row.edge = 'derived_from' THEN [1] ELSE [] END |
  CREATE (child)-[:DERIVED_FROM {essential: row.essential, boundary_id: row.to_boundary}]->(parent))
FOREACH (_ IN CASE WHEN row.edge = 'requires' THEN [1] ELSE [] END |
  CREATE (child)-[:REQUIRES {policy: row.policy, lease_until_seq: row.lease_until_seq,
                             needs: row.needs, set_seq: row.set_seq,
                             boundary_id: row.to_boundary}]->(parent))
