// Analyst audit: retirements (transitions to retired) that recorded no justifying edge.
MATCH (s:Set)-[t:TRANSITIONED]->(e:Entry)
WHERE s.boundary_id = $boundary_id AND t.to = 'retired' AND size(coalesce(t.justification, [])) = 0
RETURN e.id AS entry_id, s.id AS set_id, t.seq AS seq, t.reason AS reason
ORDER BY seq, entry_id
