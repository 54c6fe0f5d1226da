// What the gate reads before deciding a batch, in its boundary, in ONE round trip:
// - the referenced entries ($reads.entry_ids), each with the set that created it and that set's
//   writers, the standing entries that hold it through a hard REQUIRES edge, and (for an at-risk
//   entry) the failed ancestors its at-risk transitions named, and the standing entries that
//   require it through a hard or soft edge (required_by, only for the entries the batch declares
//   superseded, $reads.superseded_ids: the policy and the work seq the lease ends at; what [roots]
//   successors passes to the entry that supersedes it, named in the receipt; a popular entry
//   required by thousands costs a commit that merely cites it nothing);
//   and how many halts each set of the batch has;
// - the batch's writers registered in this boundary; the adoption receipts it cites (keys, uses
//   and validity, the verse of the material they adopt, the uses recorded so far, and the seq of
//   the receipt's boundary); the entries of other boundaries it references by name; the
//   ratified sets of the fragment window (from $reads.from_seq) that share a declared target
//   ($reads.targets) or a dependency ($reads.dependencies: the entries its new entries declare edges to)
//   with it, whoever wrote them;
//   and which of $reads.taken_ids (its set ids, and the implicit ids of proposals it could not place)
//   already name a recorded set;
// - the live resident entries of the (class, key) slots ($reads.slots) the batch's new entries would
//   revise (statuses $reads.live), in the same shape as the referenced entries: what an undeclared
//   revision is decided on (the constitution's [on_revision]); sought among resident entries
//   only (resident_entry_boundary_key), so a key's history is never read;
// - the operators' revocations that name the batch's writers (in this boundary) or the adoption
//   receipts it cites (in the receipt's own boundary);
// - the recall copies whose one use is still to come ($reads.one_use_ids, the boundary's
//   one_use_pending) that are still standing and resident, with their own lease end
//   (expires_after_seq) and the REQUIRES edges into them from standing entries (the policy and
//   the work seq the edge's lease ends at: lease_until_seq, or its set's work seq plus
//   $reads.default_lease when it declared none). The work set whose work seq reaches a copy's lease
//   end is its one use; the gate decides from these fields which copies leave with it
//   (kg_context/gate/pure/one_use.py).
// Each cited adoption receipt is locked before its uses are counted (setting the label it has: a
// write lock that changes nothing), in id order ($reads.receipt_ids is sorted): the uses of a receipt
// are counted and spent under its own lock, whichever boundary cites it, so two boundaries
// citing one receipt at once decide one after the other. The lock order is always the citing
// boundary's, then receipts by id: no two gate transactions wait on each other in a cycle.
// Its lists (and the reads' other values) travel in one map, $reads: Neo4j plans a statement
// once per parameter type, a map's size never counted (kg_context/db/catalog.py).
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
RETURN entries, on_slots, halted_sets, writers, adoptions, foreign, recent_sets, taken, revoked, one_use
