// Question: Which writers are registered in a boundary, with the kind each is bound to, when and
//   at which seq it registered (its first ratified set), and how many sets it wrote?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (w:Writer) USING INDEX SEEK w:Writer(boundary_id, id)
WHERE w.boundary_id = $boundary_id AND w.id IS NOT NULL
RETURN w.id AS id, w.kind AS kind, w.registered_at AS registered_at,
       w.registered_seq AS registered_seq, COUNT { (:Set)-[:BY]->(w) } AS sets
ORDER BY registered_seq, id
