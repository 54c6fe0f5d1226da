// Halts, newest first: all, or one boundary's, optionally only those with a given status (the
// columns of halts/get's halt, kg_context/gate/io/halts.py: HaltRecord).
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (h:Halt {boundary_id: b.id}) USING INDEX SEEK h:Halt(boundary_id, set_id)
WHERE h.set_id IS NOT NULL AND ($status IS NULL OR h.status = $status)
RETURN h.id AS id, h.boundary_id AS boundary_id, h.set_id AS set_id, h.reason_code AS reason_code,
       h.detail AS detail, h.suggested_amendment AS suggested_amendment, h.status AS status,
       h.opened_at AS opened_at, h.resolved_at AS resolved_at, h.resolution AS resolution,
       h.resolved_by AS resolved_by, h.resolution_seconds AS resolution_seconds,
       h.resolution_reason AS resolution_reason, h.constitution_version AS constitution_version,
       h.at_seq AS at_seq, h.parameter AS parameter, h.observed AS observed
ORDER BY h.opened_at DESC, h.id
LIMIT $limit
