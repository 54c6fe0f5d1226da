// What the gate reads before deciding, in its boundary: the referenced entries (with the standing entries that
// hold each through a hard REQUIRES edge, and, for an at-risk entry, the failed ancestors its
// at-risk transitions named), the cited adoption receipts, and how many halts each set has.
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
RETURN entries, adoptions, halted_sets
