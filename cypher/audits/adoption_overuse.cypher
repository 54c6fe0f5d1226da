// Analyst audit (must be empty): adoption receipts of the boundary used more often than they
// allow, or used by a set of this boundary after the seq they were valid until.
MATCH (r:Receipt)
WHERE r.boundary_id = $boundary_id AND r.kind = 'adoption'
WITH r, [(s:Set)-[u:USED_ADOPTION]->(r) | {set_id: s.id, boundary_id: s.boundary_id, seq: u.seq}]
     AS used
WHERE size(used) > coalesce(r.uses, 1)
   OR (r.valid_until_seq IS NOT NULL
       AND any(x IN used WHERE x.boundary_id = r.boundary_id AND x.seq > r.valid_until_seq))
RETURN r.id AS receipt_id, coalesce(r.uses, 1) AS allowed, size(used) AS uses,
       r.valid_until_seq AS valid_until_seq, used
ORDER BY receipt_id
