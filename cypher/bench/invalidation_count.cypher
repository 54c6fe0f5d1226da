// Benchmark data (not product): how many entries the invalidation benchmark boundary holds.
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id
RETURN count(e) AS entries
