// Schema version 9 on derivations written before it, one batch of one boundary: beside each
// essential DERIVED_FROM between two entries of the boundary (not one into another boundary,
// which carries that boundary's id), the ESSENTIALLY_DERIVED_FROM the gate now writes with it
// (the invalidation walk's at-risk reach follows it). Only adds: no edge is changed or removed;
// idempotent (a pair that has its edge is skipped; MERGE never doubles one).
MATCH (child:Entry {boundary_id: $boundary_id})-[r:DERIVED_FROM]->(parent:Entry)
WHERE r.essential = true AND r.boundary_id IS NULL AND parent.boundary_id = $boundary_id
  AND NOT EXISTS { (child)-[:ESSENTIALLY_DERIVED_FROM]->(parent) }
WITH DISTINCT child, parent
LIMIT $batch
MERGE (child)-[:ESSENTIALLY_DERIVED_FROM]->(parent)
RETURN count(*) AS written
