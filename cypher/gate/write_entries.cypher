// The entries of ratified sets, with their class label; (:Set)-[:CONTAINS]->(:Entry).
UNWIND $entries AS row
MATCH (s:Set {id: row.set_id})
CREATE (e:Entry:$(row.label))
SET e = row.props
CREATE (s)-[:CONTAINS]->(e)
