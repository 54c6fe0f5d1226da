// Question: Which entries are foundational (a soft or reconstructible lease into one holds
//   while the mark stands), marked by which operator, in which set, at which seq?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
WHERE e.foundational = true
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, e.status AS status,
       e.resident AS resident, e.foundational_by AS marked_by,
       e.foundational_set_id AS set_id, e.foundational_seq AS seq
ORDER BY boundary_id, seq, entry_id
