// The first statement of a closing gate transaction (the single committer of a boundary), in
// ONE round trip: take the boundary's write lock, record the proposals submitted with this batch,
// and read the boundary and its pending proposals.
// 1. The lock, exactly as gate/lock_boundary takes it: a plain write on the boundary node (no
//    property read on its right-hand side) BEFORE anything else (a read-modify-write SET as the
//    first lock on the node deadlocks; see lock_boundary.cypher), then the counter of gate
//    transactions, under the lock.
// 2. $proposals recorded as pending, in submission order, as gate/submit_proposals records them
//    (idempotent: a known id is left as it is; the boundary's proposal serial orders
//    submissions): what the record holds for each. Nothing is written when $proposals is empty.
// 3. The pending proposals in submission order (gate/pending_proposals: ids and digests, at
//    most $limit), the submitted ones included.
// 4. The czar's cadence as the boundary records it (a boundary recorded before it was: the
//    default, $default_czar_every) and the seq of its last claimed czar run.
// 5. The recall copies whose one use is still to come (one_use_pending: ids the gate keeps;
//    kg_context/gate/pure/one_use.py).
MATCH (b:Boundary {id: $boundary_id})
SET b.gate_locked_at = datetime()
WITH b
SET b.gate_transactions = coalesce(b.gate_transactions, 0) + 1
WITH b
CALL (b) {
  WITH b
  WHERE size($proposals) > 0
  SET b.last_submitted_at = $now
  SET b.proposal_serial = coalesce(b.proposal_serial, 0) + size($proposals)
  WITH b, b.proposal_serial - size($proposals) AS base
  UNWIND range(0, size($proposals) - 1) AS i
  WITH base, i, $proposals[i] AS row
  MERGE (p:Proposal {boundary_id: $boundary_id, id: row.id})
    ON CREATE SET p += row.props, p.status = 'pending', p.serial = base + i, p.submitted_at = $now
  RETURN collect({id: p.id, status: p.status, digest: p.digest, boundary_id: p.boundary_id,
                  set_id: p.set_id}) AS submitted
}
CALL () {
  MATCH (p:Proposal)
  WHERE p.boundary_id = $boundary_id AND p.status = 'pending'
  WITH p ORDER BY p.serial LIMIT $limit
  RETURN collect({id: p.id, digest: p.digest}) AS pending
}
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, coalesce(b.live_count, 0) AS live_count,
       coalesce(b.requires_count, 0) AS requires_count, b.last_set_id AS last_set_id,
       coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens,
       coalesce(b.work_seq, b.seq) AS work_seq,
       coalesce(b.czar_every_commits, $default_czar_every) AS czar_every_commits,
       coalesce(b.czar_seq, 0) AS czar_seq,
       coalesce(b.ledger_pos, 0) AS ledger_pos, b.ledger_head AS ledger_head,
       coalesce(b.one_use_pending, []) AS one_use_pending, submitted, pending
