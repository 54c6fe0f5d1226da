// Question: Which edges lead from an entry of the boundary to an entry of another boundary without
//   naming the boundary they reach, or from a set that used no adoption receipt of that boundary
//   covering the target's key?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: a cross-boundary edge is declared, allowed and adopted)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})-[r:DERIVED_FROM|REQUIRES|SUPERSEDES]->(t:Entry)
USING INDEX SEEK e:Entry(boundary_id)
WHERE t.boundary_id <> e.boundary_id
  AND (r.boundary_id IS NULL OR r.boundary_id <> t.boundary_id
       OR NOT EXISTS {
         MATCH (s:Set {boundary_id: e.boundary_id, id: e.set_id})-[:USED_ADOPTION]->(a:Receipt)
           USING INDEX SEEK s:Set(boundary_id, id)
         WHERE a.boundary_id = t.boundary_id AND t.key IN a.keys
       })
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, type(r) AS edge, t.id AS target,
       t.boundary_id AS target_boundary
ORDER BY boundary_id, entry_id, target
