// One entry's latest move to at_risk (the queue item an operator resolves), sought through the
// entry's (boundary_id, id) index: the entry's status now, the set that moved it, and the failed
// ancestors that move named. No row: the entry was never at risk.
MATCH (e:Entry {boundary_id: $boundary_id, id: $entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
MATCH (s:Set)-[t:TRANSITIONED]->(e)
WHERE t.to = 'at_risk'
WITH e, s, t
ORDER BY s.seq DESC
LIMIT 1
RETURN e.status AS status, s.id AS opened_by, coalesce(t.failed_ancestors, []) AS failed_ancestors
