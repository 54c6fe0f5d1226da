// Benchmark only: the internal node ids of the given boundaries' nodes, the ids a blocked
// transaction's lock names (SHOW TRANSACTIONS resourceInformation.resourceIds).
MATCH (b:Boundary)
WHERE b.id IN $boundary_ids
RETURN b.id AS boundary_id, id(b) AS node_id
