// Analyst audit (must be empty): DERIVED_FROM cycles and hard REQUIRES cycles through an entry
// of the boundary (up to 32 edges long), self-derivation included.
MATCH (e:Entry) WHERE e.boundary_id = $boundary_id
CALL (e) {
  MATCH p = (e)-[:DERIVED_FROM*1..32]->(e)
  RETURN 'DERIVED_FROM' AS edge, [n IN nodes(p) | n.id] AS path LIMIT 1
  UNION
  MATCH p = (e)-[:REQUIRES*1..32]->(e)
  WHERE all(r IN relationships(p) WHERE r.policy = 'hard')
  RETURN 'hard REQUIRES' AS edge, [n IN nodes(p) | n.id] AS path LIMIT 1
}
RETURN e.id AS entry_id, edge, path
ORDER BY entry_id
