// Benchmark baseline (not product): every descendant of one entry by a bare variable-length
// traversal over DERIVED_FROM (no grading, no bounds, no boundary filter), collected into one
// list so it pays the same transfer as the walk's per-level lists.
MATCH (root:Entry {id: $root_id})<-[:DERIVED_FROM*]-(d:Entry)
RETURN collect(DISTINCT d.id) AS ids
