// Give receipts written before kind labels existed their kind label (:CommitReceipt, ...), for
// Neo4j Browser's style. Idempotent: only receipts without one are touched.
MATCH (r:Receipt)
WHERE r.kind IS NOT NULL
  AND NOT (r:ReviewReceipt OR r:CommitReceipt OR r:RejectionReceipt OR r:HaltReceipt
           OR r:ResolutionReceipt OR r:AdoptionReceipt OR r:ConstitutionReceipt)
SET r:$(toUpper(left(r.kind, 1)) + substring(r.kind, 1) + 'Receipt')
RETURN count(r) AS labelled
