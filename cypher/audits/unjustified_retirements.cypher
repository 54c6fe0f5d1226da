// Question: Which retirements (transitions to retired) recorded no justifying edge or fact?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows (a review list: the czar cites its evidence; an operator may retire with a reason
//   only, and this lists those retirements)
MATCH (b:Boundary) WHERE $boundary_id IS NULL OR b.id = $boundary_id
MATCH (s:Set {boundary_id: b.id})-[t:TRANSITIONED]->(e:Entry)
USING INDEX s:Set(boundary_id)
WHERE t.to = 'retired' AND size(coalesce(t.justification, [])) = 0
RETURN s.boundary_id AS boundary_id, e.id AS entry_id, s.id AS set_id, t.seq AS seq,
       t.reason AS reason
ORDER BY boundary_id, seq, entry_id
