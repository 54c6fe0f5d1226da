// Question: How often does the gate halt, for which reason codes, and how long do operators take
//   to resolve halts (halt categories and resolution times)?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
MATCH (h:Halt)
WHERE $boundary_id IS NULL OR h.boundary_id = $boundary_id
RETURN h.boundary_id AS boundary_id, h.reason_code AS reason_code, count(*) AS halts,
       sum(CASE WHEN h.status = 'open' THEN 1 ELSE 0 END) AS open,
       avg(h.resolution_seconds) AS mean_resolution_seconds,
       max(h.resolution_seconds) AS max_resolution_seconds
ORDER BY boundary_id, reason_code
