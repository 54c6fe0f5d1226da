// kg-context: the halts queue (open halts, oldest first, with their sets and proposals)
// Parameters: $boundary_id (null: every boundary)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH p = (h:Halt:Open {boundary_id: b.id})-[:ON]->(s:Set) USING INDEX SEEK h:Halt(boundary_id, set_id)
WHERE h.set_id IS NOT NULL
OPTIONAL MATCH q = (:Proposal)-[:IN_SET]->(s)
RETURN h.id AS halt, h.reason_code AS reason, h.detail AS detail,
       h.suggested_amendment AS suggested_amendment, h.opened_at AS opened_at, p, q
ORDER BY opened_at
LIMIT 100
