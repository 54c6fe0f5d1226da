// Halts of one boundary for a briefing: every open halt (whenever it opened) and the ones opened
// since the ratified set at $since_seq (all when $since_seq is 0), by reason code and status,
// with up to 10 halt ids each. Index seeks on Halt(boundary_id, set_id), Set(boundary_id, seq).
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL MATCH (anchor:Set {boundary_id: b.id, seq: $since_seq})
  USING INDEX SEEK anchor:Set(boundary_id, seq)
WITH b, CASE WHEN $since_seq <= 0 THEN null ELSE anchor.closed_at END AS after
MATCH (h:Halt) USING INDEX SEEK h:Halt(boundary_id, set_id)
WHERE h.boundary_id = b.id AND h.set_id IS NOT NULL
  AND (h.status = $open OR after IS NULL OR h.opened_at > after)
WITH h.reason_code AS reason_code, h.status AS status, h ORDER BY h.opened_at
WITH reason_code, status, count(h) AS n, collect(h.id)[..10] AS halt_ids,
     collect(h.suggested_amendment)[0] AS suggested_amendment
RETURN reason_code, status, n, halt_ids, suggested_amendment
ORDER BY CASE WHEN status = $open THEN 0 ELSE 1 END, n DESC, reason_code
