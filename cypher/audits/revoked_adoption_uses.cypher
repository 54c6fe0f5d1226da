// Question: Which ratified sets used an adoption receipt after an operator revoked it (a use by a
//   set closed after the revocation was recorded)?
// Parameters:
//   $boundary_id  the boundary that issued the receipts (a string), or null for every boundary
// Expect: empty (an invariant: the gate rejects every later citation of a revoked receipt,
//   ADOPTION_REVOKED)
MATCH (r:RevocationReceipt)
WHERE r.subject_kind = 'adoption' AND ($boundary_id IS NULL OR r.boundary_id = $boundary_id)
MATCH (a:Receipt {id: r.subject_id})<-[u:USED_ADOPTION]-(s:Set)
WHERE a.kind = 'adoption' AND s.status = 'ratified' AND s.closed_at > r.at
RETURN r.boundary_id AS boundary_id, a.id AS receipt_id, r.id AS revocation_id,
       r.at AS revoked_at, s.boundary_id AS set_boundary_id, s.id AS set_id, s.closed_at AS closed_at
ORDER BY boundary_id, receipt_id, closed_at
