// What the gate reads before deciding, in its boundary: the referenced entries (with the set
// that created each and that set's writers, the standing entries that hold each through a hard REQUIRES edge, and, for
// an at-risk entry, the failed ancestors its at-risk transitions named), and how many halts each
// set has. Entries of other boundaries a set names are read by gate/load_context.
CALL {
  UNWIND $entry_ids AS entry_id
  MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, set_id: e.set_id,
                  set_writers: [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(e) | w.id],
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
  MATCH (h:Halt) WHERE h.boundary_id = $boundary_id AND h.set_id IN $set_ids
  RETURN collect(h.set_id) AS halted_sets
}
RETURN entries, halted_sets
