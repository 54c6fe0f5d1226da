// Benchmark baseline (not product): every descendant of one entry by a bare variable-length
// traversal over DERIVED_FROM (no grading, no bounds, no boundary filter past the root), collected into one
// list so it pays the same transfer as the walk's per-level lists.
MATCH (root:Entry {boundary_id: $boundary_id, id: $root_id})<-[:DERIVED_FROM*]-(d:Entry)
  USING INDEX SEEK root:Entry(boundary_id, id)
RETURN collect(DISTINCT d.id) AS ids
