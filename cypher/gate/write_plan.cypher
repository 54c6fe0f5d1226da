// Everything one gate transaction decided, in one statement, part by part in this order (each
// part a subquery over its own list; an empty list writes nothing). A plan of a few sets is
// sealed into the ledger (kg_context/gate/pure/ledger.py) before it is sent, and its sealed
// receipts, halts and ledger head travel here too (parts 11 and 12, exactly as
// gate/write_sealed.cypher writes them); a larger plan is sent without them (no receipts, no
// halts, no $sealed.ledger_pos) and, while the server runs it, sealed; then gate/write_sealed.cypher
// writes them in the same transaction. Every node is
// looked up or merged by (boundary_id, id) (targets by (boundary_id, key)): writers and
// targets are the boundary's own nodes, so nothing here is shared across boundaries. Nothing is
// deleted: the record keeps every entry. The parts:
//
// 1. Each set, in ledger order (ratified, halted or rejected, with its status as a label too, for
//    Neo4j Browser's style: :Ratified, :Halted or :Rejected) IN its boundary and (ratified) BY its
//    writers, registered in the boundary with their kind on their first ratified set; what
//    became of its proposals (status, IN_SET); and for a ratified set its entries (with class,
//    status and residency labels, and declared targets), the NEXT link from the previous
//    ratified set, and its history index line (a ratified set's only:
//    (:IndexEntry)-[:INDEXES]->(:Set)).
// 2. Declared provenance (permanent): (:Entry)-[:DERIVED_FROM {essential}]->(:Entry); beside
//    an essential one, (:Entry)-[:ESSENTIALLY_DERIVED_FROM]->(:Entry) between the same two
//    entries of the boundary (what the invalidation walk follows for the at-risk reach, without
//    reading each edge's properties; ledger verification checks the two agree).
// 3. Interface compaction: (:Interface)-[:SUMMARIZES {seq}]->(:Entry), for each interface entry
//    and the original it is essentially DERIVED_FROM.
// 4. Declared residency edges: (:Entry)-[:REQUIRES {policy, lease_until_seq, lease_sets, needs,
//    set_seq, set_work}]->(:Entry). lease_until_seq counts the boundary's work (work_seq), not
//    its seq: the czar's compaction sets do not age a lease.
// 5. Declared edges to entries of other boundaries (the constitution allows the edge, and the
//    target boundary's adoption receipt covers it): DERIVED_FROM or REQUIRES, each carrying the
//    boundary it reaches into.
// 6. One counted use of an adoption receipt by a ratified set: (:Set)-[:USED_ADOPTION {seq}]->
//    (:Receipt). Receipts are never changed; their uses are counted from these edges.
// 7. Lease renewals caused by a committed work set (kg_context/gate/pure/leases.py): for each
//    renewal, the set's entry `by` requires (live_reference) or is derived from (use) the
//    standing entry `to`; every soft/reconstructible REQUIRES edge into it from another standing
//    entry (not of the renewing set) whose lease would end sooner gets its own lease restarted
//    at the set's work seq: lease_until_seq = work + (its lease_sets, or $default_lease when it
//    declared none). Each renewal is recorded: (:LeaseRenewal {kind, seq, work_seq, from_id,
//    to_id, by_id, set_id, previous_until, until})-[:RENEWS]->(to), -[:BY]->(the renewing entry).
// 8. An operator's foundational marks (kg_context/gate/pure/leases.py; the gate checked the writer is
//    a named operator and the entry standing): the entry records who marked it, in which set, at
//    which seq; every soft/reconstructible REQUIRES edge into it from a standing entry now holds
//    while the mark stands, and each is recorded as a renewal of kind 'foundational' (until:
//    null, the lease no longer ends).
// 9. Declared supersession (and one the constitution's [on_revision] rule made: `rule` names it):
//    the edge, and (when the gate executed it: not append-only, target
//    live) the status flip of the superseded entry out of the window, labels kept in step.
// 10. Declared status and residency changes of existing entries, with their status and
//    residency labels kept in step, and a TRANSITIONED edge from the ratifying set with the
//    reason, the case it cited, the failed ancestors it answers to, and the exact edges or facts
//    that justified the change.
// 11. Each decided set's sealed receipts FOR it, and the typed halts, open for an operator
//    (gate/write_sealed.cypher says what each holds).
// 12. The boundary after the transaction's sets: seq, last ratified set, and its running counts
//    (work_seq: the sets that are the boundary's work, i.e. not the czar's and not constitution
//    changes; the lease clock; one_use_pending: the recall copies whose one use is still to
//    come, kg_context/gate/pure/one_use.py), with an optimistic check on top of the lock: only if the seq is
//    still the one read under the lock (no row back: nothing of the transaction may commit);
//    and, when the plan was sealed before it was sent ($sealed.ledger_pos), the ledger's head.
// Each part sees what the parts before it wrote (a renewal skips the entries of its own set; a
// supersession flips an entry the renewals have read as standing).
// The plan's lists travel in one map ($plan), the sealed part in another ($sealed): Neo4j plans
// a statement once per parameter type, a map's size never counted (kg_context/db/catalog.py).
CALL () {
  UNWIND $plan.sets AS set_row
  MATCH (b:Boundary {id: $boundary_id})
  MERGE (s:Set {boundary_id: $boundary_id, id: set_row.id})
  SET s += set_row.props
  REMOVE s:Ratified:Halted:Rejected
  SET s:$(toUpper(left(s.status, 1)) + substring(s.status, 1))
  MERGE (s)-[:IN]->(b)
  WITH s, set_row
  OPTIONAL MATCH (prev:Set {boundary_id: $boundary_id, id: set_row.prev_id})
    USING INDEX SEEK prev:Set(boundary_id, id)
  FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(s))
  FOREACH (w IN set_row.writers |
    MERGE (writer:Writer {boundary_id: $boundary_id, id: w.id})
      ON CREATE SET writer.kind = w.kind, writer.registered_at = set_row.props.closed_at,
                    writer.registered_seq = set_row.props.seq
    MERGE (s)-[:BY]->(writer))
  FOREACH (ix IN set_row.index |
    CREATE (line:IndexEntry)
    SET line = ix
    CREATE (line)-[:INDEXES]->(s))
  WITH s, set_row
  CALL (s, set_row) {
    UNWIND set_row.proposals AS decided
    MATCH (p:Proposal {boundary_id: $boundary_id, id: decided.id})
      USING INDEX SEEK p:Proposal(boundary_id, id)
    SET p.status = decided.status, p.set_id = s.id
    MERGE (p)-[:IN_SET]->(s)
  }
  WITH s, set_row
  UNWIND set_row.entries AS entry
  CREATE (e:Entry:$(entry.labels))
  SET e = entry.props
  CREATE (s)-[:CONTAINS]->(e)
  FOREACH (key IN entry.targets |
    MERGE (t:Target {boundary_id: $boundary_id, key: key})
    CREATE (e)-[:TARGETS]->(t))
}
CALL () {
  UNWIND $plan.derived AS derived
  MATCH (child:Entry {boundary_id: $boundary_id, id: derived.from}),
        (parent:Entry {boundary_id: $boundary_id, id: derived.to})
    USING INDEX SEEK child:Entry(boundary_id, id)
    USING INDEX SEEK parent:Entry(boundary_id, id)
  CREATE (child)-[:DERIVED_FROM {essential: derived.essential}]->(parent)
  FOREACH (_ IN CASE WHEN derived.essential THEN [1] ELSE [] END |
    CREATE (child)-[:ESSENTIALLY_DERIVED_FROM]->(parent))
}
CALL () {
  UNWIND $plan.summarizes AS summary
  MATCH (interface:Entry {boundary_id: $boundary_id, id: summary.from}),
        (original:Entry {boundary_id: $boundary_id, id: summary.to})
    USING INDEX SEEK interface:Entry(boundary_id, id)
    USING INDEX SEEK original:Entry(boundary_id, id)
  CREATE (interface)-[:SUMMARIZES {seq: summary.seq}]->(original)
}
CALL () {
  UNWIND $plan.requires AS requirement
  MATCH (dependent:Entry {boundary_id: $boundary_id, id: requirement.from}),
        (required:Entry {boundary_id: $boundary_id, id: requirement.to})
    USING INDEX SEEK dependent:Entry(boundary_id, id)
    USING INDEX SEEK required:Entry(boundary_id, id)
  CREATE (dependent)-[:REQUIRES {policy: requirement.policy,
                                 lease_until_seq: requirement.lease_until_seq,
                                 lease_sets: requirement.lease_sets, needs: requirement.needs,
                                 set_seq: requirement.set_seq,
                                 set_work: requirement.set_work}]->(required)
}
CALL () {
  UNWIND $plan.foreign_edges AS foreign_edge
  MATCH (child:Entry {boundary_id: $boundary_id, id: foreign_edge.from})
    USING INDEX SEEK child:Entry(boundary_id, id)
  MATCH (parent:Entry {boundary_id: foreign_edge.to_boundary, id: foreign_edge.to})
    USING INDEX SEEK parent:Entry(boundary_id, id)
  FOREACH (_ IN CASE WHEN foreign_edge.edge = 'derived_from' THEN [1] ELSE [] END |
    CREATE (child)-[:DERIVED_FROM {essential: foreign_edge.essential,
                                   boundary_id: foreign_edge.to_boundary}]->(parent))
  FOREACH (_ IN CASE WHEN foreign_edge.edge = 'requires' THEN [1] ELSE [] END |
    CREATE (child)-[:REQUIRES {policy: foreign_edge.policy,
                               lease_until_seq: foreign_edge.lease_until_seq,
                               needs: foreign_edge.needs, set_seq: foreign_edge.set_seq,
                               boundary_id: foreign_edge.to_boundary}]->(parent))
}
CALL () {
  UNWIND $plan.adoption_uses AS use
  MATCH (s:Set {boundary_id: $boundary_id, id: use.set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  MATCH (r:Receipt {id: use.receipt_id})
  CREATE (s)-[:USED_ADOPTION {seq: use.seq}]->(r)
}
CALL () {
  UNWIND $plan.renewals AS renewal
  MATCH (t:Entry {boundary_id: $boundary_id, id: renewal.to})
    USING INDEX SEEK t:Entry(boundary_id, id)
  WHERE t.status IN $standing
  MATCH (by:Entry {boundary_id: $boundary_id, id: renewal.by})
    USING INDEX SEEK by:Entry(boundary_id, id)
  MATCH (d)-[r:REQUIRES]->(t)
  WHERE d.boundary_id = $boundary_id AND r.policy <> 'hard' AND d.status IN $standing
    AND d.set_id <> renewal.set_id
  WITH renewal, t, by, d, r,
       coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) AS before,
       renewal.work + coalesce(r.lease_sets, $default_lease) AS until
  WHERE until > before
  SET r.lease_until_seq = until, r.renewed_at_seq = renewal.seq, r.renewed_by = renewal.by,
      r.renewal_kind = renewal.kind
  CREATE (n:LeaseRenewal {id: renewal.set_id + '/renew/' + renewal.kind + '/' + renewal.by + '/'
                              + d.id + '/' + t.id,
                          boundary_id: $boundary_id, kind: renewal.kind, seq: renewal.seq,
                          work_seq: renewal.work, from_id: d.id, to_id: t.id, by_id: renewal.by,
                          set_id: renewal.set_id, previous_until: before, until: until})
  CREATE (n)-[:RENEWS]->(t), (n)-[:BY]->(by)
}
CALL () {
  UNWIND $plan.foundational AS mark
  MATCH (t:Entry {boundary_id: $boundary_id, id: mark.entry_id})
    USING INDEX SEEK t:Entry(boundary_id, id)
  SET t.foundational = true, t.foundational_by = mark.by, t.foundational_seq = mark.seq,
      t.foundational_set_id = mark.set_id
  WITH mark, t
  OPTIONAL MATCH (d)-[r:REQUIRES]->(t)
  WHERE d.boundary_id = $boundary_id AND d.status IN $standing AND r.policy <> 'hard'
  FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
    CREATE (n:LeaseRenewal {id: mark.set_id + '/renew/foundational/' + t.id + '/' + d.id,
                            boundary_id: $boundary_id, kind: 'foundational', seq: mark.seq,
                            work_seq: mark.work, from_id: d.id, to_id: t.id, by_id: mark.by,
                            set_id: mark.set_id,
                            previous_until: coalesce(r.lease_until_seq,
                                                     coalesce(r.set_work, r.set_seq)
                                                     + $default_lease),
                            until: null})
    CREATE (n)-[:RENEWS]->(t)
    SET r.renewed_at_seq = mark.seq, r.renewed_by = mark.by, r.renewal_kind = 'foundational')
}
CALL () {
  UNWIND $plan.supersedes AS superseded
  MATCH (new:Entry {boundary_id: $boundary_id, id: superseded.from}),
        (old:Entry {boundary_id: $boundary_id, id: superseded.to})
    USING INDEX SEEK new:Entry(boundary_id, id)
    USING INDEX SEEK old:Entry(boundary_id, id)
  CREATE (new)-[:SUPERSEDES {reason: superseded.reason, seq: superseded.seq,
                             executed: superseded.executed, rule: superseded.rule}]->(old)
  WITH old, superseded
  WHERE superseded.executed
  SET old.status = 'superseded', old.resident = false, old.superseded_by = superseded.from,
      old.superseded_at_seq = superseded.seq
  REMOVE old:Live:Revalidated:Resident
  SET old:Superseded
}
CALL () {
  UNWIND $plan.transitions AS transition
  MATCH (s:Set {boundary_id: $boundary_id, id: transition.set_id}),
        (e:Entry {boundary_id: $boundary_id, id: transition.entry_id})
    USING INDEX SEEK s:Set(boundary_id, id)
    USING INDEX SEEK e:Entry(boundary_id, id)
  SET e.status = transition.to, e.resident = transition.resident, e.status_seq = transition.seq
  REMOVE e:$(transition.from_label)
  SET e:$(transition.to_label)
  FOREACH (_ IN CASE WHEN transition.resident THEN [1] ELSE [] END | SET e:Resident)
  FOREACH (_ IN CASE WHEN transition.resident THEN [] ELSE [1] END | REMOVE e:Resident)
  CREATE (s)-[:TRANSITIONED {from: transition.from, to: transition.to,
                             resident: transition.resident,
                             was_resident: transition.was_resident, reason: transition.reason,
                             case: transition.case,
                             failed_ancestors: transition.failed_ancestors,
                             justification: transition.justification, seq: transition.seq}]->(e)
}
CALL () {
  UNWIND $sealed.receipts AS row
  MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  CREATE (receipt:Receipt:$(toUpper(left(row.props.kind, 1)) + substring(row.props.kind, 1)
                            + 'Receipt'))
  SET receipt = row.props
  CREATE (receipt)-[:FOR]->(s)
}
CALL () {
  UNWIND $sealed.halts AS halt
  MATCH (s:Set {boundary_id: $boundary_id, id: halt.set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  CREATE (h:Halt:Open)
  SET h = halt.props
  CREATE (h)-[:ON]->(s)
}
MATCH (b:Boundary {id: $boundary_id})
WHERE b.seq = $expected_seq
SET b.seq = $seq, b.last_set_id = $last_set_id, b.live_count = $live_count,
    b.requires_count = $requires_count, b.committed_tokens = $committed_tokens,
    b.resident_tokens = $resident_tokens, b.work_seq = $work_seq,
    b.one_use_pending = $plan.one_use_pending
FOREACH (_ IN CASE WHEN $sealed.ledger_pos IS NULL THEN [] ELSE [1] END |
  SET b.ledger_pos = $sealed.ledger_pos, b.ledger_head = $sealed.ledger_head,
      b.ledger_since_seq = coalesce(b.ledger_since_seq, $sealed.ledger_since_seq))
RETURN b.seq AS seq
