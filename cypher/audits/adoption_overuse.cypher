// Question: Which adoption receipts were used by more ratified sets than they allow, or by a set of
//   their own boundary after the seq they were valid until?
// Parameters:
//   $boundary_id  the boundary that issued the receipts (a string), or null for every boundary
// Expect: empty (an invariant: the gate counts every use and refuses one past the receipt's scope)
MATCH (r:Receipt)
WHERE r.kind = 'adoption' AND ($boundary_id IS NULL OR r.boundary_id = $boundary_id)
WITH r, [(s:Set)-[u:USED_ADOPTION]->(r) | {set_id: s.id, boundary_id: s.boundary_id, seq: u.seq}]
     AS used
WHERE size(used) > coalesce(r.uses, 1)
   OR (r.valid_until_seq IS NOT NULL
       AND any(x IN used WHERE x.boundary_id = r.boundary_id AND x.seq > r.valid_until_seq))
RETURN r.boundary_id AS boundary_id, r.id AS receipt_id, coalesce(r.uses, 1) AS allowed,
       size(used) AS uses, r.valid_until_seq AS valid_until_seq, used
ORDER BY boundary_id, receipt_id
