// An operator's revocation receipt ($receipt: its props, kind 'revocation', with subject_kind,
// subject_id, operator_id, reason, at and seq: the boundary's seq when it was written), FOR the
// boundary, written under the boundary's lock by an operator the constitution names; never
// changed afterwards. It REVOKES what it names where the record holds it: the writer's
// registration, the adoption receipt, or the entry whose foundational mark it ends (the entry
// stops being foundational and records which revocation ended the mark; its soft and
// reconstructible REQUIRES edges fall back to their own leases). A credential is named by its
// sha256 only: the API refuses that token in this boundary from now on.
MATCH (b:Boundary {id: $boundary_id})
CREATE (r:Receipt:RevocationReceipt)
SET r = $receipt
CREATE (r)-[:FOR]->(b)
WITH r
CALL (r) {
  MATCH (w:Writer {boundary_id: $boundary_id, id: r.subject_id})
    USING INDEX SEEK w:Writer(boundary_id, id)
  WHERE r.subject_kind = 'writer'
  CREATE (r)-[:REVOKES]->(w)
}
CALL (r) {
  MATCH (a:Receipt {id: r.subject_id})
  WHERE r.subject_kind = 'adoption' AND a.kind = 'adoption' AND a.boundary_id = $boundary_id
  CREATE (r)-[:REVOKES]->(a)
}
CALL (r) {
  MATCH (e:Entry {boundary_id: $boundary_id, id: r.subject_id})
    USING INDEX SEEK e:Entry(boundary_id, id)
  WHERE r.subject_kind = 'foundational' AND e.foundational = true
  SET e.foundational = false, e.foundational_revoked_by = r.operator_id,
      e.foundational_revoked_seq = r.seq, e.foundational_revocation_id = r.id
  CREATE (r)-[:REVOKES]->(e)
}
RETURN r.id AS id
