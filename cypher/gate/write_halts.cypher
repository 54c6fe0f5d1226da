// Typed halts, open for an operator: (:Halt)-[:ON]->(:Set).
UNWIND $halts AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
CREATE (h:Halt)
SET h = row.props
CREATE (h)-[:ON]->(s)
