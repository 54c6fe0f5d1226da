// A boundary's revocations, oldest first, optionally of one subject kind ($subject_kind, or null
// for every kind): who revoked what, when, at which seq, and why.
MATCH (r:RevocationReceipt)-[:FOR]->(b:Boundary {id: $boundary_id})
WHERE $subject_kind IS NULL OR r.subject_kind = $subject_kind
RETURN r.id AS id, r.boundary_id AS boundary_id, r.subject_kind AS subject_kind,
       r.subject_id AS subject_id, r.operator_id AS operator_id, r.reason AS reason,
       r.at AS at, r.seq AS seq, r.constitution_version AS constitution_version
ORDER BY r.seq, r.at, r.id
