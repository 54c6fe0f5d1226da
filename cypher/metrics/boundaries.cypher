// The gauges /metrics exports per boundary: seq, the running token counts the gate keeps on the
// boundary node (committed and resident), live entries; at most $limit boundaries, by id, and
// how many boundaries there are in all.
MATCH (b:Boundary)
WITH count(b) AS total
MATCH (b:Boundary)
WITH total, b ORDER BY b.id LIMIT $limit
RETURN total, b.id AS boundary_id, coalesce(b.seq, 0) AS seq,
       coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens,
       coalesce(b.live_count, 0) AS live_count
