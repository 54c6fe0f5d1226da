// Benchmark only: the transactions blocked on a lock right now, with the boundary their
// statement names, whether it is the czar's (its claim, report or release carry $run_id; its
// compaction sets are proposals of writer kind czar), and the lock they wait for (its resource
// type and ids: for a node, the internal ids of the nodes), so the concurrency benchmark can tell
// a commit that waits on work of its own boundary from one that waits on another boundary's.
SHOW TRANSACTIONS YIELD status, parameters, resourceInformation
WHERE status STARTS WITH 'Blocked'
RETURN parameters.boundary_id AS boundary_id,
       parameters.run_id IS NOT NULL
         OR any(p IN coalesce(parameters.proposals, []) WHERE p.writer_kind = 'czar') AS czar,
       resourceInformation.resourceType AS resource_type,
       resourceInformation.resourceIds AS resource_ids
