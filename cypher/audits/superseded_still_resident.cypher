// Question: Which superseded entries are still in the window?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: a supersession takes the old entry out of the window)
MATCH (e:Entry)
WHERE ($boundary_id IS NULL OR e.boundary_id = $boundary_id)
  AND e.status = 'superseded' AND e.resident = true
RETURN e.boundary_id AS boundary_id, e.id AS id, e.key AS key, e.superseded_by AS superseded_by
ORDER BY boundary_id, id
