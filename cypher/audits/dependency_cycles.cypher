// Question: Which entries lie on a DERIVED_FROM cycle or a hard REQUIRES cycle (up to 32 edges
//   long, self-derivation included)?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate rejects cycles, DEPENDENCY_CYCLE)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
CALL (e) {
  MATCH p = (e)-[:DERIVED_FROM*1..32]->(e)
  RETURN 'DERIVED_FROM' AS edge, [n IN nodes(p) | n.id] AS path LIMIT 1
  UNION
  MATCH p = (e)-[:REQUIRES*1..32]->(e)
  WHERE all(r IN relationships(p) WHERE r.policy = 'hard')
  RETURN 'hard REQUIRES' AS edge, [n IN nodes(p) | n.id] AS path LIMIT 1
}
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, edge, path
ORDER BY boundary_id, entry_id
