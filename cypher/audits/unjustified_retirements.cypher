// Question: Which retirements (transitions to retired) recorded no justifying edge or fact?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows (a review list: the czar cites its evidence; an operator may retire with a reason
//   only, and this lists those retirements)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (s:Set {boundary_id: b.id})-[t:TRANSITIONED]->(e:Entry)
USING INDEX SEEK s:Set(boundary_id)
WHERE t.to = 'retired' AND size(coalesce(t.justification, [])) = 0
RETURN s.boundary_id AS boundary_id, e.id AS entry_id, s.id AS set_id, t.seq AS seq,
       t.reason AS reason
ORDER BY boundary_id, seq, entry_id
