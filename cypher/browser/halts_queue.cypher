// kg-context: the halts queue (open halts, oldest first, with their sets and proposals)
// Parameters: $boundary_id (null: every boundary)
MATCH p = (h:Halt:Open)-[:ON]->(s:Set)
WHERE $boundary_id IS NULL OR h.boundary_id = $boundary_id
OPTIONAL MATCH q = (:Proposal)-[:IN_SET]->(s)
RETURN h.id AS halt, h.reason_code AS reason, h.detail AS detail,
       h.suggested_amendment AS suggested_amendment, h.opened_at AS opened_at, p, q
ORDER BY opened_at
LIMIT 100
