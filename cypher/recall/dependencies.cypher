// One hop of declared residency dependencies out of the given entries (same boundary).
UNWIND $ids AS entry_id
WITH DISTINCT entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})-[r:REQUIRES]->(t:Entry)
  USING INDEX SEEK e:Entry(boundary_id, id)
WHERE t.boundary_id = $boundary_id
RETURN e.id AS from_id, t.id AS to_id, r.policy AS policy, coalesce(r.needs, []) AS needs
ORDER BY from_id, to_id
