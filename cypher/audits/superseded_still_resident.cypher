// Question: Which superseded entries are still in the window?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: a supersession takes the old entry out of the window)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
WHERE e.status = 'superseded' AND e.resident = true
RETURN e.boundary_id AS boundary_id, e.id AS id, e.key AS key, e.superseded_by AS superseded_by
ORDER BY boundary_id, id
