// Question: Which entries are live (or revalidated) although a ratified set executed a
//   supersession of them?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: an executed supersession moves the old entry to superseded)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (new:Entry)-[r:SUPERSEDES]->(old:Entry {boundary_id: b.id})
USING INDEX SEEK old:Entry(boundary_id)
WHERE r.executed = true AND old.status IN ['live', 'revalidated']
RETURN old.boundary_id AS boundary_id, old.id AS entry_id, old.key AS key,
       old.status AS status, new.id AS superseded_by, r.seq AS seq
ORDER BY boundary_id, seq, entry_id
