// kg-context: the blast radius of a set, drawn (everything derived from what it committed)
// Parameters: $boundary_id, $set_id
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})-[:CONTAINS]->(failed:Entry)
  USING INDEX SEEK s:Set(boundary_id, id)
OPTIONAL MATCH p = (failed)<-[:DERIVED_FROM*1..8]-(d)
WHERE d.boundary_id = $boundary_id
RETURN s, failed, p
LIMIT 300
