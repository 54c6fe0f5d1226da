// The first statement of a gate transaction (the single committer of a boundary): take the
// boundary's write lock, record the proposals submitted with this batch, read the boundary, the
// pending proposals, and the state the submitted proposals refer to, in ONE round trip.
// 1. The lock, by a plain write on the boundary node (no property read on its right-hand side)
//    BEFORE anything else: a read-modify-write SET (`b.n = coalesce(b.n, 0) + 1`) makes Cypher
//    take an extra lock on the node before the exclusive one (its lost-update protection), and
//    three transactions doing that while commits create relationships to the boundary node
//    deadlock on it. Then the counter of gate transactions, under the lock.
// 2. $proposals recorded as pending, in submission order (idempotent: a known id is left as it
//    is; the boundary's proposal serial orders submissions): what the record holds for each.
// 3. The pending proposals in submission order (ids and digests; at most $limit).
// 4. The state the gate reads before deciding ($entry_ids, $receipt_ids, $set_ids: what the
//    caller expects the sets to refer to; exactly cypher/gate/load_state.cypher's reads, which
//    the caller runs as well when the pending sets refer to more).
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
    ON CREATE SET p += row.props, p.status = 'pending', p.serial = base + i,
                  p.submitted_at = $now
  RETURN collect({id: p.id, status: p.status, digest: p.digest, boundary_id: p.boundary_id,
                  set_id: p.set_id}) AS submitted
}
CALL () {
  MATCH (p:Proposal)
  WHERE p.boundary_id = $boundary_id AND p.status = 'pending'
  WITH p ORDER BY p.serial LIMIT $limit
  RETURN collect({id: p.id, digest: p.digest}) AS pending
}
// -- cypher/gate/load_state.cypher, verbatim (tests/unit/test_gate_rows.py holds them equal) --
CALL {
  MATCH (e:Entry) WHERE e.boundary_id = $boundary_id AND e.id IN $entry_ids
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident,
                  tokens: coalesce(e.tokens, 0),
                  requires_out: COUNT { (e)-[:REQUIRES]->() },
                  hard_held_by: [(d:Entry)-[h:REQUIRES]->(e)
                                 WHERE h.policy = 'hard' AND d.status IN $standing
                                 | d.id],
                  failed_ancestors: CASE WHEN e.status = 'at_risk'
                    THEN reduce(acc = [], a IN [(:Set)-[t:TRANSITIONED]->(e)
                                                WHERE t.to = 'at_risk'
                                                | coalesce(t.failed_ancestors, [])]
                                | acc + a)
                    ELSE [] END}) AS entries
}
CALL {
  MATCH (r:Receipt) WHERE r.id IN $receipt_ids AND r.kind = 'adoption'
    AND r.boundary_id = $boundary_id
  RETURN collect(r.id) AS adoptions
}
CALL {
  MATCH (h:Halt) WHERE h.boundary_id = $boundary_id AND h.set_id IN $set_ids
  RETURN collect(h.set_id) AS halted_sets
}
// -- end of load_state.cypher --
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, coalesce(b.live_count, 0) AS live_count,
       coalesce(b.requires_count, 0) AS requires_count, b.last_set_id AS last_set_id,
       coalesce(b.committed_tokens, 0) AS committed_tokens,
       coalesce(b.resident_tokens, 0) AS resident_tokens,
       submitted, pending, entries, adoptions, halted_sets
