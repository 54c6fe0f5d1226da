// One hop of declared residency dependencies out of the given entries (same boundary).
MATCH (e:Entry)-[r:REQUIRES]->(t:Entry)
WHERE e.boundary_id = $boundary_id AND e.id IN $ids AND t.boundary_id = $boundary_id
RETURN e.id AS from_id, t.id AS to_id, r.policy AS policy, coalesce(r.needs, []) AS needs
ORDER BY from_id, to_id
