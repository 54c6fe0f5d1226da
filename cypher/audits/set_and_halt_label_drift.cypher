// Question: Which sets and halts carry a status label (for Neo4j Browser's style) that disagrees
//   with their status: a set is exactly one of :Ratified, :Halted, :Rejected, a halt exactly one
//   of :Open, :Resolved, named after the status?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate sets labels and statuses in the same statements; a
//   database written before the labels existed is labelled by kg-context schema apply)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
CALL (b) {
  MATCH (n:Set {boundary_id: b.id}) RETURN n
  UNION
  MATCH (n:Halt {boundary_id: b.id}) USING INDEX SEEK n:Halt(boundary_id, set_id)
  WHERE n.set_id IS NOT NULL RETURN n
}
WITH n, toUpper(left(n.status, 1)) + substring(n.status, 1) AS expected,
     [l IN labels(n) WHERE l IN ['Ratified', 'Halted', 'Rejected', 'Open', 'Resolved']] AS found
WHERE found <> [expected]
RETURN n.boundary_id AS boundary_id, labels(n) AS labels, n.id AS id, n.status AS status
ORDER BY boundary_id, id
