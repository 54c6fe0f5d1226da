// Question: Which writers, adoption receipts, foundational marks and API credentials did the
//   operators revoke: who, when (time and seq), under which constitution, and why?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
MATCH (r:RevocationReceipt)
WHERE r.subject_kind IN ['writer', 'adoption', 'foundational', 'credential']
  AND ($boundary_id IS NULL OR r.boundary_id = $boundary_id)
RETURN r.boundary_id AS boundary_id, r.id AS revocation_id, r.subject_kind AS subject_kind,
       r.subject_id AS subject_id, r.operator_id AS operator_id, r.at AS at, r.seq AS seq,
       r.constitution_version AS constitution_version, r.reason AS reason,
       [(r)-[:REVOKES]->(x) | labels(x)[0]] AS revokes
ORDER BY boundary_id, seq, at
