// Question: Which entries are in the record without a ratified set that contains them and a
//   commit receipt for that set?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: nothing enters the record but through the gate's commit)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
OPTIONAL MATCH (s:Set)-[:CONTAINS]->(e)
WITH e, s
WHERE s IS NULL OR s.status <> 'ratified'
   OR NOT EXISTS { MATCH (r:Receipt)-[:FOR]->(s) WHERE r.kind = 'commit' }
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, e.key AS key, s.id AS set_id,
       s.status AS set_status
ORDER BY boundary_id, entry_id
