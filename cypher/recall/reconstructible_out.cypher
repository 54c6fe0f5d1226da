// What a dependent holds through reconstructible REQUIRES edges that is out of the window now
// (left because the record can rebuild it): what recall.rehydrate admits back through the gate.
MATCH (d:Entry {boundary_id: $boundary_id, id: $entry_id})-[:REQUIRES {policy: 'reconstructible'}]->(t:Entry)
  USING INDEX SEEK d:Entry(boundary_id, id)
WHERE t.boundary_id = $boundary_id AND t.resident = false
RETURN t.id AS id
ORDER BY id
