// What a revocation in boundary $boundary_id would revoke ($subject_kind: writer, adoption,
// foundational or credential; $subject_id: the writer id, the adoption receipt id, the entry id,
// or the credential's sha256): the writer's registered kind here (null: not registered), whether
// the adoption receipt is this boundary's, whether the entry exists and is foundational now, and
// the revocations of this boundary that already name it. Read under the boundary's lock.
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL MATCH (w:Writer {boundary_id: $boundary_id, id: $subject_id})
  USING INDEX SEEK w:Writer(boundary_id, id)
  WHERE $subject_kind = 'writer'
OPTIONAL MATCH (a:Receipt {id: $subject_id})
  WHERE $subject_kind = 'adoption' AND a.kind = 'adoption' AND a.boundary_id = $boundary_id
OPTIONAL MATCH (e:Entry {boundary_id: $boundary_id, id: $subject_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
  WHERE $subject_kind = 'foundational'
RETURN w.kind AS writer_kind, a IS NOT NULL AS adoption_found, e IS NOT NULL AS entry_found,
       coalesce(e.foundational, false) AS foundational,
       COLLECT { MATCH (r:RevocationReceipt)
                 WHERE r.boundary_id = $boundary_id AND r.subject_kind = $subject_kind
                   AND r.subject_id = $subject_id
                 RETURN r.id } AS earlier
