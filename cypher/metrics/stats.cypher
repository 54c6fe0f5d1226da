// Residency metrics of one boundary: the running counts the gate keeps on the boundary node,
// the resident window recomputed from entries (an audit of those counts), set outcomes, halt
// categories (every halt ever raised) and halts by status (open, resolved), and the record's
// size (entries are never deleted).
MATCH (b:Boundary {id: $boundary_id})
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, resident)
  WHERE e.boundary_id = b.id AND e.resident = true
  RETURN count(e) AS resident_entries, sum(coalesce(e.tokens, 0)) AS resident_tokens_recomputed
}
CALL (b) {
  MATCH (e:Entry) WHERE e.boundary_id = b.id
  RETURN count(e) AS record_entries
}
CALL (b) {
  MATCH (s:Set) WHERE s.boundary_id = b.id
  WITH s.status AS status, count(*) AS n ORDER BY status
  RETURN collect({status: status, count: n}) AS sets
}
CALL (b) {
  MATCH (h:Halt) USING INDEX SEEK h:Halt(boundary_id, set_id)
  WHERE h.boundary_id = b.id AND h.set_id IS NOT NULL
  WITH h.reason_code AS reason_code, count(h) AS n ORDER BY reason_code
  RETURN collect({reason_code: reason_code, count: n}) AS halts
}
CALL (b) {
  MATCH (h:Halt) USING INDEX SEEK h:Halt(boundary_id, set_id)
  WHERE h.boundary_id = b.id AND h.set_id IS NOT NULL
  WITH h.status AS status, count(h) AS n ORDER BY status
  RETURN collect({status: status, count: n}) AS halt_statuses
}
RETURN b.id AS boundary_id, b.seq AS seq, coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens, coalesce(b.live_count, 0) AS live_count,
       coalesce(b.requires_count, 0) AS requires_count, resident_entries,
       resident_tokens_recomputed, record_entries, sets, halts, halt_statuses
