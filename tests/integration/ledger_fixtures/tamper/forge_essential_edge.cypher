// An intruder adds an ESSENTIALLY_DERIVED_FROM edge around the gate, with no essential
// DERIVED_FROM beside it (the invalidation walk would put the entry at risk with its target).
MATCH (child:Entry {boundary_id: $boundary_id, id: $from})
MATCH (parent:Entry {boundary_id: $boundary_id, id: $to})
CREATE (child)-[:ESSENTIALLY_DERIVED_FROM]->(parent)
RETURN child.id AS id
