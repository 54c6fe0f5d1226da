// What one boundary holds, for comparing it before and after a read: every node of the boundary
// (its :Boundary node and each node carrying its boundary id) with its labels and properties, and
// every relationship touching one (type, properties, ends), in a stable order. The caller hashes
// the rows. It scans every node: a check for tests and operators, not a path of the engine.
MATCH (n)
WHERE n.boundary_id = $boundary_id OR (n:Boundary AND n.id = $boundary_id)
OPTIONAL MATCH (n)-[r]-()
WITH n, r
ORDER BY elementId(r)
WITH n, collect(CASE WHEN r IS NULL THEN null ELSE {
  id: elementId(r), type: type(r), props: properties(r),
  start: elementId(startNode(r)), end: elementId(endNode(r))
} END) AS rels
RETURN elementId(n) AS node, labels(n) AS labels, properties(n) AS props, rels
ORDER BY node
