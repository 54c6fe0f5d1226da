// Question: Every receipt of a boundary with the seed-003 family it belongs to (gateway_review,
//   state_commit_receipt, state_rejection_receipt, verse_adoption_receipt): the receipts FOR
//   its sets and FOR the boundary itself (its founding constitution, adoptions,
//   revocations), in order.
//   Receipts written before `family` was recorded get it from their kind (the same mapping as
//   ReceiptKind.family; tests/unit/test_receipt_families.py keeps the two equal).
// Parameters:
//   $boundary_id  the boundary (a string)
//   $family       one family (a string, e.g. 'state_rejection_receipt'), or null for every family
// Expect: rows
MATCH (b:Boundary {id: $boundary_id})
CALL (b) {
  MATCH (s:Set {boundary_id: b.id})<-[:FOR]-(r:Receipt)
  RETURN r
  UNION
  MATCH (r:Receipt)-[:FOR]->(b)
  RETURN r
}
WITH r, coalesce(r.family, CASE r.kind
                             WHEN 'review' THEN 'gateway_review'
                             WHEN 'resolution' THEN 'gateway_review'
                             WHEN 'commit' THEN 'state_commit_receipt'
                             WHEN 'constitution' THEN 'state_commit_receipt'
                             WHEN 'rejection' THEN 'state_rejection_receipt'
                             WHEN 'halt' THEN 'state_rejection_receipt'
                             WHEN 'adoption' THEN 'verse_adoption_receipt'
                             WHEN 'revocation' THEN 'state_commit_receipt'
                           END) AS family
WHERE $family IS NULL OR family = $family
RETURN r.id AS id, r.kind AS kind, family, r.set_id AS set_id, r.at AS at,
       r.decision AS decision, r {.*, family: family} AS fields
ORDER BY at, id
