// Typed halts, open for an operator: (:Halt)-[:ON]->(:Set).
UNWIND $halts AS row
MATCH (s:Set {id: row.set_id})
CREATE (h:Halt)
SET h = row.props
CREATE (h)-[:ON]->(s)
