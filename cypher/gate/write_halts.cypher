// Typed halts, open for an operator: (:Halt:Open)-[:ON]->(:Set) (the status label is for
// Neo4j Browser's style; resolving a halt makes it :Resolved).
UNWIND $halts AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
CREATE (h:Halt:Open)
SET h = row.props
CREATE (h)-[:ON]->(s)
