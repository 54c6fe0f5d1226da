// Question: How often does the gate halt, for which reason codes, and how long do operators take
//   to resolve halts (halt categories and resolution times)?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (h:Halt {boundary_id: b.id}) USING INDEX SEEK h:Halt(boundary_id, set_id)
WHERE h.set_id IS NOT NULL
RETURN h.boundary_id AS boundary_id, h.reason_code AS reason_code, count(*) AS halts,
       sum(CASE WHEN h.status = 'open' THEN 1 ELSE 0 END) AS open,
       avg(h.resolution_seconds) AS mean_resolution_seconds,
       max(h.resolution_seconds) AS max_resolution_seconds
ORDER BY boundary_id, reason_code
