// The halts of one boundary with their class (reason code, the constitution parameter a threshold
// predicate tripped on and the value it measured) and how the operator resolved them, oldest
// first; only those opened at or after boundary seq $since_seq when it is given. What
// record/amendments groups into halt classes.
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (h:Halt {boundary_id: b.id}) USING INDEX SEEK h:Halt(boundary_id, set_id)
WHERE h.set_id IS NOT NULL AND ($since_seq IS NULL OR h.at_seq >= $since_seq)
RETURN h.id AS id, h.boundary_id AS boundary_id, h.reason_code AS reason_code,
       h.parameter AS parameter, h.observed AS observed, h.status AS status,
       h.resolution AS resolution, h.at_seq AS at_seq
ORDER BY h.opened_at, h.id
