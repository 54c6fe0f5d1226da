// The boundary after the transaction's sets: seq, last ratified set, and its running counts.
MATCH (b:Boundary {id: $boundary_id})
SET b.seq = $seq, b.last_set_id = $last_set_id, b.live_count = $live_count,
    b.requires_count = $requires_count, b.committed_tokens = $committed_tokens,
    b.resident_tokens = $resident_tokens
