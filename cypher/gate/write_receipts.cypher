// Receipts (review, commit, halt, rejection): (:Receipt)-[:FOR]->(:Set).
UNWIND $receipts AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
CREATE (r:Receipt)
SET r = row.props
CREATE (r)-[:FOR]->(s)
