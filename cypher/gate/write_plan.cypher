// Everything one gate transaction decided, in ONE statement (one round trip), in this order:
// 1. the sets, set by set, in ledger order: each set (ratified, halted or rejected, with its
//    status as a label too, for Neo4j Browser's style: :Ratified, :Halted or :Rejected) IN its
//    boundary and BY its writers, its receipts FOR it, what became of its proposals (status,
//    IN_SET), and for a ratified set its entries (with class, status and residency labels, and
//    declared targets) and the NEXT link from the previous ratified set;
// 2. the edges between entries: declared provenance (DERIVED_FROM {essential}), interface
//    compaction (SUMMARIZES {seq}: an interface entry and the original it is essentially
//    DERIVED_FROM), residency (REQUIRES {policy, lease_until_seq, needs, set_seq});
// 3. declared supersession: the edge, and (when the gate executed it: not append-only, target
//    live) the status flip of the superseded entry out of the window, labels kept in step;
// 4. typed halts, open for an operator: (:Halt:Open)-[:ON]->(:Set);
// 5. declared status and residency changes of existing entries, with their status and residency
//    labels kept in step, and a TRANSITIONED edge from the ratifying set with the reason, the
//    case it cited, the failed ancestors it answers to, and the exact edges or facts that
//    justified the change;
// 6. the boundary after the transaction's sets (seq, last ratified set, running counts), with an
//    optimistic check on top of the lock: only if the seq is still the one read under the lock
//    (no row back: nothing of the transaction may commit).
// Every node is looked up or merged by (boundary_id, id) (targets by (boundary_id, key)):
// writers and targets are the boundary's own nodes, so nothing here is shared across
// boundaries. Nothing is deleted: the record keeps every entry.
CALL () {
  UNWIND $sets AS set_row
  MATCH (b:Boundary {id: $boundary_id})
  MERGE (s:Set {boundary_id: $boundary_id, id: set_row.id})
  SET s += set_row.props
  REMOVE s:Ratified:Halted:Rejected
  SET s:$(toUpper(left(s.status, 1)) + substring(s.status, 1))
  MERGE (s)-[:IN]->(b)
  WITH s, set_row
  OPTIONAL MATCH (prev:Set {boundary_id: $boundary_id, id: set_row.prev_id})
  FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(s))
  FOREACH (w IN set_row.writers |
    MERGE (writer:Writer {boundary_id: $boundary_id, id: w.id}) ON CREATE SET writer.kind = w.kind
    MERGE (s)-[:BY]->(writer))
  FOREACH (r IN set_row.receipts |
    CREATE (receipt:Receipt:$(toUpper(left(r.kind, 1)) + substring(r.kind, 1) + 'Receipt'))
    SET receipt = r
    CREATE (receipt)-[:FOR]->(s))
  WITH s, set_row
  CALL (s, set_row) {
    UNWIND set_row.proposals AS decided
    MATCH (p:Proposal {boundary_id: $boundary_id, id: decided.id})
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
  UNWIND $derived AS derived
  MATCH (child:Entry {boundary_id: $boundary_id, id: derived.from}),
        (parent:Entry {boundary_id: $boundary_id, id: derived.to})
  CREATE (child)-[:DERIVED_FROM {essential: derived.essential}]->(parent)
}
CALL () {
  UNWIND $summarizes AS summary
  MATCH (interface:Entry {boundary_id: $boundary_id, id: summary.from}),
        (original:Entry {boundary_id: $boundary_id, id: summary.to})
  CREATE (interface)-[:SUMMARIZES {seq: summary.seq}]->(original)
}
CALL () {
  UNWIND $requires AS required
  MATCH (dependent:Entry {boundary_id: $boundary_id, id: required.from}),
        (dependency:Entry {boundary_id: $boundary_id, id: required.to})
  CREATE (dependent)-[:REQUIRES {policy: required.policy,
                                 lease_until_seq: required.lease_until_seq,
                                 needs: required.needs, set_seq: required.set_seq}]->(dependency)
}
CALL () {
  UNWIND $supersedes AS superseded
  MATCH (new:Entry {boundary_id: $boundary_id, id: superseded.from}),
        (old:Entry {boundary_id: $boundary_id, id: superseded.to})
  CREATE (new)-[:SUPERSEDES {reason: superseded.reason, seq: superseded.seq,
                             executed: superseded.executed}]->(old)
  WITH old, superseded
  WHERE superseded.executed
  SET old.status = 'superseded', old.resident = false, old.superseded_by = superseded.from,
      old.superseded_at_seq = superseded.seq
  REMOVE old:Live:Revalidated:Resident
  SET old:Superseded
}
CALL () {
  UNWIND $halts AS halt
  MATCH (s:Set {boundary_id: $boundary_id, id: halt.set_id})
  CREATE (h:Halt:Open)
  SET h = halt.props
  CREATE (h)-[:ON]->(s)
}
CALL () {
  UNWIND $transitions AS transition
  MATCH (s:Set {boundary_id: $boundary_id, id: transition.set_id}),
        (e:Entry {boundary_id: $boundary_id, id: transition.entry_id})
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
                             justification: transition.justification,
                             seq: transition.seq}]->(e)
}
MATCH (b:Boundary {id: $boundary_id})
WHERE b.seq = $expected_seq
SET b.seq = $seq, b.last_set_id = $last_set_id, b.live_count = $live_count,
    b.requires_count = $requires_count, b.committed_tokens = $committed_tokens,
    b.resident_tokens = $resident_tokens
RETURN b.seq AS seq
