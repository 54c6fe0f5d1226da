// Test fixture: the target nodes of one boundary and the entries TARGETING each.
MATCH (t:Target {boundary_id: $boundary_id})
RETURN t.key AS key, [(e:Entry)-[:TARGETS]->(t) | e.boundary_id] AS entry_boundaries
ORDER BY key
