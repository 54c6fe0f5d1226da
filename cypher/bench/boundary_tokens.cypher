// The running token counts the gate keeps on one boundary (a unique-index seek): what the
// session benchmark samples after every set.
MATCH (b:Boundary {id: $boundary_id})
RETURN b.seq AS seq, coalesce(b.resident_tokens, 0) AS resident_tokens,
       coalesce(b.committed_tokens, 0) AS committed_tokens
