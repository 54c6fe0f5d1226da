// Take the boundary's write lock for this transaction (single committer across processes):
// a real write (a counter of gate transactions), so Neo4j holds the node lock until commit.
MATCH (b:Boundary {id: $boundary_id})
SET b.gate_transactions = coalesce(b.gate_transactions, 0) + 1
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, coalesce(b.live_count, 0) AS live_count,
       coalesce(b.requires_count, 0) AS requires_count, b.last_set_id AS last_set_id,
       coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens
