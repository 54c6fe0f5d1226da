// Benchmark only: the transactions blocked on a lock right now, with the boundary their
// statement names and the lock they wait for (its resource type and ids: for a node, the internal
// ids of the nodes), so the concurrency benchmark can tell a commit that waits on work of its own
// boundary from one that waits on another boundary's.
SHOW TRANSACTIONS YIELD status, parameters, resourceInformation
WHERE status STARTS WITH 'Blocked'
RETURN parameters.boundary_id AS boundary_id,
       resourceInformation.resourceType AS resource_type,
       resourceInformation.resourceIds AS resource_ids
