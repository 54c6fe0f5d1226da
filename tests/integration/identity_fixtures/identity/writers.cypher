// Test fixture: the writer nodes of one boundary and the sets BY each.
MATCH (w:Writer {boundary_id: $boundary_id})
RETURN w.id AS id, w.kind AS kind, COUNT { (:Set)-[:BY]->(w) } AS sets
ORDER BY id
