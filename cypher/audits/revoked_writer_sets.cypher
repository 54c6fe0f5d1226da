// Question: Which sets were ratified after an operator revoked the registration of one of their
//   writers (a set of a later seq BY the revoked writer)?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate rejects every later set of a revoked writer, WRITER_REVOKED)
MATCH (r:RevocationReceipt)
WHERE r.subject_kind = 'writer' AND ($boundary_id IS NULL OR r.boundary_id = $boundary_id)
MATCH (w:Writer {boundary_id: r.boundary_id, id: r.subject_id})<-[:BY]-(s:Set)
  USING INDEX SEEK w:Writer(boundary_id, id)
WHERE s.status = 'ratified' AND s.seq > r.seq
RETURN r.boundary_id AS boundary_id, r.subject_id AS writer_id, r.id AS revocation_id,
       r.seq AS revoked_at_seq, s.id AS set_id, s.seq AS seq
ORDER BY boundary_id, seq
