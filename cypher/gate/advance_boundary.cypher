// The boundary after the transaction's sets: seq, last ratified set, and its running counts
// (work_seq: the sets that are the boundary's work, i.e. not the czar's and not constitution
// changes; the lease clock).
// Optimistic check on top of the lock: only if the seq is still the one read under the lock.
MATCH (b:Boundary {id: $boundary_id})
WHERE b.seq = $expected_seq
SET b.seq = $seq, b.last_set_id = $last_set_id, b.live_count = $live_count,
    b.requires_count = $requires_count, b.committed_tokens = $committed_tokens,
    b.resident_tokens = $resident_tokens, b.work_seq = $work_seq
RETURN b.seq AS seq
