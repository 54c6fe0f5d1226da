// Schema version 10 on entries written before it, one batch: the boundary token cut to its first
// $length characters, which is the token the gate now writes for the same boundary
// (kg_context/db/text_index.py). Touches nothing else; idempotent (only longer tokens change).
MATCH (e:Entry)
WHERE size(e.boundary_token) > $length
WITH e LIMIT $batch
SET e.boundary_token = left(e.boundary_token, $length)
RETURN count(e) AS written
