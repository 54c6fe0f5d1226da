// Analyst audit (must be empty): edges from entries of the boundary to entries of another that
// do not name the boundary they reach, or whose set used no adoption receipt of that boundary
// covering the target's key.
MATCH (e:Entry)-[r:DERIVED_FROM|REQUIRES|SUPERSEDES]->(t:Entry)
WHERE e.boundary_id = $boundary_id AND t.boundary_id <> e.boundary_id
  AND (r.boundary_id IS NULL OR r.boundary_id <> t.boundary_id
       OR NOT EXISTS {
         MATCH (s:Set {boundary_id: e.boundary_id, id: e.set_id})-[:USED_ADOPTION]->(a:Receipt)
         WHERE a.boundary_id = t.boundary_id AND t.key IN a.keys
       })
RETURN e.id AS entry_id, type(r) AS edge, t.id AS target, t.boundary_id AS target_boundary
ORDER BY entry_id, target
