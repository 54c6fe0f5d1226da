// Take the boundary's write lock for this transaction (single committer across processes), and
// read the boundary. The lock is taken by a plain write (no property read on its right-hand
// side) BEFORE anything else: a read-modify-write SET (`b.n = coalesce(b.n, 0) + 1`) makes
// Cypher take an extra lock on the node before the exclusive one (its lost-update protection),
// and three transactions doing that while commits create relationships to the boundary node
// deadlock on it. Then the counter of gate transactions, under the lock. one_use_pending: the
// recall copies whose one use is still to come (kg_context/gate/pure/one_use.py).
MATCH (b:Boundary {id: $boundary_id})
SET b.gate_locked_at = datetime()
WITH b
SET b.gate_transactions = coalesce(b.gate_transactions, 0) + 1
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, coalesce(b.live_count, 0) AS live_count,
       coalesce(b.requires_count, 0) AS requires_count, b.last_set_id AS last_set_id,
       coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens,
       coalesce(b.work_seq, b.seq) AS work_seq,
       coalesce(b.ledger_pos, 0) AS ledger_pos, b.ledger_head AS ledger_head,
       coalesce(b.one_use_pending, []) AS one_use_pending
