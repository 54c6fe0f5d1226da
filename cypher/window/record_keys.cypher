// Which of $keys name a key of the boundary: an entry of the boundary, in the window or in the
// record, stands under it (the entry_boundary_key index: boundary_id, key). A context's query is
// focused by them.
UNWIND $keys AS k
WITH DISTINCT k
WHERE EXISTS { MATCH (e:Entry) WHERE e.boundary_id = $boundary_id AND e.key = k }
RETURN k AS key ORDER BY key
