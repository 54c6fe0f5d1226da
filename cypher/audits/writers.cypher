// Analyst audit: the writers registered in a boundary, each with the kind it is bound to, when
// and at which seq it registered (its first ratified set), and how many sets it wrote.
MATCH (w:Writer)
WHERE w.boundary_id = $boundary_id
RETURN w.id AS id, w.kind AS kind, w.registered_at AS registered_at,
       w.registered_seq AS registered_seq, COUNT { (:Set)-[:BY]->(w) } AS sets
ORDER BY registered_seq, id
