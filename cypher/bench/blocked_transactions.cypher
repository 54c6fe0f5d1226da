// Benchmark only: the transactions blocked on a lock right now, with the boundary their
// statement names (the concurrency benchmark samples this to see commits wait on each other).
SHOW TRANSACTIONS YIELD status, parameters
WHERE status STARTS WITH 'Blocked'
RETURN parameters.boundary_id AS boundary_id
