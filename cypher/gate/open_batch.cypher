// The first statement of a closing gate transaction (the single committer of a boundary), in
// ONE round trip: take the boundary's write lock, record the proposals submitted with this batch,
// and read the boundary, its pending proposals and (when the gate can guess what it decides)
// the snapshot it decides them on.
// 1. The lock, exactly as gate/lock_boundary takes it: a plain write on the boundary node (no
//    property read on its right-hand side) BEFORE anything else (a read-modify-write SET as the
//    first lock on the node deadlocks; see lock_boundary.cypher), then the counter of gate
//    transactions, under the lock.
// 2. $batch.proposals recorded as pending, in submission order, as gate/submit_proposals records them
//    (idempotent: a known id is left as it is; the boundary's proposal serial orders
//    submissions): what the record holds for each. Nothing is written when $batch.proposals is empty.
// 3. The pending proposals in submission order (gate/pending_proposals: ids and digests, at
//    most $limit), the submitted ones included.
// 4. The czar's cadence as the boundary records it (a boundary recorded before it was: the
//    default, $default_czar_every) and the seq of its last claimed czar run.
// 5. The recall copies whose one use is still to come (one_use_pending: ids the gate keeps;
//    kg_context/gate/pure/one_use.py).
// 6. The snapshot the gate decides the batch on, read under the lock just taken: exactly
//    gate/load_snapshot's reads (the same subqueries, the same parameters; a unit test keeps the
//    two texts equal). The gate sends them here when it can work out their parameters before
//    the transaction (a commit() of the proposals it submits, all the boundary has pending) and
//    uses what they read only if the parameters it works out from what this statement read
//    under the lock are the very same; with no such guess every list is empty and they read
//    nothing.
// The proposals travel in one map ($batch), the snapshot's parameters in another ($reads): Neo4j
// plans a statement once per parameter type, a map's size never counted (kg_context/db/catalog.py).
MATCH (b:Boundary {id: $boundary_id})
SET b.gate_locked_at = datetime()
WITH b
SET b.gate_transactions = coalesce(b.gate_transactions, 0) + 1
WITH b
CALL (b) {
  WITH b
  WHERE size($batch.proposals) > 0
  SET b.last_submitted_at = $now
  SET b.proposal_serial = coalesce(b.proposal_serial, 0) + size($batch.proposals)
  WITH b, b.proposal_serial - size($batch.proposals) AS base
  UNWIND range(0, size($batch.proposals) - 1) AS i
  WITH base, i, $batch.proposals[i] AS row
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
WITH b, submitted, pending
CALL {
  UNWIND $reads.entry_ids AS entry_id
  MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
    USING INDEX SEEK e:Entry(boundary_id, id)
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, set_id: e.set_id,
                  set_writers: [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(e) | w.id],
                  tokens: coalesce(e.tokens, 0),
                  requires_out: COUNT { (e)-[:REQUIRES]->() },
                  hard_held_by: [(d:Entry)-[h:REQUIRES]->(e)
                                 WHERE h.policy = 'hard' AND d.status IN $reads.standing
                                 | d.id],
                  required_by: CASE WHEN e.id IN $reads.superseded_ids
                    THEN [(d:Entry)-[h:REQUIRES]->(e)
                          WHERE h.policy IN ['hard', 'soft'] AND d.status IN $reads.standing
                          | {id: d.id, policy: h.policy,
                             until: coalesce(h.lease_until_seq,
                                             coalesce(h.set_work, h.set_seq) + $reads.default_lease)}]
                    ELSE [] END,
                  failed_ancestors: CASE WHEN e.status = 'at_risk'
                    THEN reduce(acc = [], a IN [(:Set)-[t:TRANSITIONED]->(e)
                                                WHERE t.to = 'at_risk'
                                                | coalesce(t.failed_ancestors, [])]
                                | acc + a)
                    ELSE [] END}) AS entries
}
CALL {
  UNWIND $reads.slots AS slot
  MATCH (e:Resident {boundary_id: $boundary_id, key: slot.key})
  USING INDEX SEEK e:Resident(boundary_id, key)
  WHERE e:Entry AND e.class = slot.class AND e.status IN $reads.live AND e.resident = true
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, set_id: e.set_id,
                  set_writers: [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(e) | w.id],
                  tokens: coalesce(e.tokens, 0),
                  requires_out: COUNT { (e)-[:REQUIRES]->() },
                  hard_held_by: [(d:Entry)-[h:REQUIRES]->(e)
                                 WHERE h.policy = 'hard' AND d.status IN $reads.standing
                                 | d.id],
                  required_by: [(d:Entry)-[h:REQUIRES]->(e)
                                WHERE h.policy IN ['hard', 'soft'] AND d.status IN $reads.standing
                                | {id: d.id, policy: h.policy,
                                   until: coalesce(h.lease_until_seq,
                                                   coalesce(h.set_work, h.set_seq)
                                                   + $reads.default_lease)}],
                  failed_ancestors: []}) AS on_slots
}
CALL {
  MATCH (h:Halt) WHERE h.boundary_id = $boundary_id AND h.set_id IN $reads.set_ids
  RETURN collect(h.set_id) AS halted_sets
}
CALL {
  UNWIND $reads.writer_ids AS writer_id
  MATCH (w:Writer {boundary_id: $boundary_id, id: writer_id})
    USING INDEX SEEK w:Writer(boundary_id, id)
  RETURN collect({id: w.id, kind: w.kind}) AS writers
}
CALL {
  UNWIND $reads.receipt_ids AS receipt_id
  MATCH (r:Receipt {id: receipt_id})
    USING INDEX SEEK r:Receipt(id)
  WHERE r.kind = 'adoption'
  SET r:AdoptionReceipt
  WITH r
  MATCH (rb:Boundary {id: r.boundary_id})
  RETURN collect({id: r.id, boundary_id: r.boundary_id, keys: coalesce(r.keys, []),
                  uses: coalesce(r.uses, 1), valid_until_seq: r.valid_until_seq,
                  material_verse: r.material_verse,
                  used: COUNT { (:Set)-[:USED_ADOPTION]->(r) }, boundary_seq: rb.seq})
         AS adoptions
}
CALL {
  UNWIND $reads.foreign AS ref
  MATCH (e:Entry {boundary_id: ref.boundary_id, id: ref.entry_id})
    USING INDEX SEEK e:Entry(boundary_id, id)
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, verse: e.verse,
                  tokens: coalesce(e.tokens, 0)}) AS foreign
}
CALL {
  MATCH (s:Set)
    USING INDEX SEEK s:Set(boundary_id, seq)
  WHERE s.boundary_id = $boundary_id AND s.seq >= $reads.from_seq AND s.status = 'ratified'
    AND (any(t IN coalesce(s.targets, []) WHERE t IN $reads.targets)
         OR any(d IN coalesce(s.dependencies, []) WHERE d IN $reads.dependencies))
  RETURN collect({id: s.id, seq: s.seq, targets: coalesce(s.targets, []),
                  writer_ids: coalesce(s.writer_ids, [s.writer_id]),
                  fanout: coalesce(s.fanout, 0), entry_count: coalesce(s.entry_count, 0),
                  lineage: coalesce(s.lineage, []),
                  dependencies: coalesce(s.dependencies, [])}) AS recent_sets
}
CALL {
  UNWIND $reads.taken_ids AS set_id
  MATCH (s:Set {boundary_id: $boundary_id, id: set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  RETURN collect(s.id) AS taken
}
CALL {
  MATCH (r:RevocationReceipt)
  WHERE (r.subject_kind = 'writer' AND r.boundary_id = $boundary_id
         AND r.subject_id IN $reads.writer_ids)
     OR (r.subject_kind = 'adoption' AND r.subject_id IN $reads.receipt_ids)
  RETURN collect({kind: r.subject_kind, id: r.subject_id, receipt_id: r.id, seq: r.seq,
                  by: r.operator_id, boundary_id: r.boundary_id}) AS revoked
}
CALL {
  UNWIND $reads.one_use_ids AS copy_id
  MATCH (e:Entry {boundary_id: $boundary_id, id: copy_id})
    USING INDEX SEEK e:Entry(boundary_id, id)
  WHERE e.status IN $reads.standing AND e.resident = true AND e.expires_after_seq IS NOT NULL
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, set_id: e.set_id,
                  tokens: coalesce(e.tokens, 0), requires_out: COUNT { (e)-[:REQUIRES]->() },
                  expires_after_seq: e.expires_after_seq,
                  foundational: coalesce(e.foundational, false),
                  held_by: [(d:Entry)-[r:REQUIRES]->(e) WHERE d.status IN $reads.standing
                            | {id: d.id, policy: r.policy,
                               until: coalesce(r.lease_until_seq,
                                               coalesce(r.set_work, r.set_seq) + $reads.default_lease)}]})
         AS one_use
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
       coalesce(b.one_use_pending, []) AS one_use_pending, submitted, pending,
       entries, on_slots, halted_sets, writers, adoptions, foreign, recent_sets, taken, revoked,
       one_use
