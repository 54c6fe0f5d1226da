// Benchmark (not product): how many entries of a generated residency boundary are live/retired.
MATCH (e:Entry) WHERE e.boundary_id = $boundary_id
RETURN e.status AS status, count(*) AS n
ORDER BY status
