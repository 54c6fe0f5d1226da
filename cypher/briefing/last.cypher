// The boundary's last operator's briefing (its seq: where the next one starts by default), or no
// row when none was recorded (a traversal from the boundary, found by its id).
MATCH (b:Boundary {id: $boundary_id})-[:BRIEFING]->(r:Briefing)
RETURN r.id AS id, r.seq AS seq, toString(r.at) AS at
ORDER BY r.at DESC
LIMIT 1
