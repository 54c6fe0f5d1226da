// Entries of a boundary that no set CONTAINS (every entry the gate writes is a set's): at most
// $limit of them, by id.
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id AND NOT EXISTS { MATCH (:Set)-[:CONTAINS]->(e) }
RETURN e.id AS id
ORDER BY id
LIMIT $limit
