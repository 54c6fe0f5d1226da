// Invalidation sets of one boundary ratified since $since_seq, each with its blast radius: the
// entries it moved, by the status they moved to (challenged, invalidated, at_risk), in ledger
// order. Index seek on Set(boundary_id, seq).
MATCH (s:Set) USING INDEX SEEK s:Set(boundary_id, seq)
WHERE s.boundary_id = $boundary_id AND s.seq > $since_seq AND s.kind = $kind
CALL (s) {
  OPTIONAL MATCH (s)-[t:TRANSITIONED]->(:Entry)
  WITH t.to AS to, count(t) AS n WHERE to IS NOT NULL
  RETURN collect({to: to, count: n}) AS moved
}
RETURN s.id AS set_id, s.seq AS seq, s.summary AS summary, moved
ORDER BY s.seq
