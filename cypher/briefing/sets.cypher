// Sets of one boundary decided since $since_seq, by status and kind: ratified sets by their seq;
// halted and rejected ones (no seq) by closing after the ratified set at $since_seq (all of them
// when $since_seq is 0). Index seeks on Set(boundary_id, seq) and Set(boundary_id).
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL MATCH (anchor:Set {boundary_id: b.id, seq: $since_seq})
  USING INDEX SEEK anchor:Set(boundary_id, seq)
WITH b, CASE WHEN $since_seq <= 0 THEN null ELSE anchor.closed_at END AS after
MATCH (s:Set) WHERE s.boundary_id = b.id
  AND (s.seq > $since_seq OR (s.seq IS NULL AND (after IS NULL OR s.closed_at > after)))
WITH s.status AS status, s.kind AS kind, count(s) AS n
RETURN status, kind, n
ORDER BY status, kind
