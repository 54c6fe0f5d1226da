// Question: What is the blast radius of a set: every entry derived (DERIVED_FROM, forward, any
//   depth) from the entries the set committed, at its least depth, and whether an essential-only
//   path reaches it (those go at_risk when the set fails; the others are only flagged)?
// Parameters:
//   $boundary_id  the boundary (a string)
//   $set_id       the set (a string)
// Expect: rows
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})-[:CONTAINS]->(failed:Entry)
MATCH p = (failed)<-[:DERIVED_FROM*]-(d:Entry)
WHERE d.boundary_id = $boundary_id
WITH d, min(length(p)) AS depth,
     min(CASE WHEN all(r IN relationships(p) WHERE r.essential) THEN length(p) END)
       AS essential_depth,
     collect(DISTINCT failed.id) AS from_entries
RETURN d.id AS entry_id, d.class AS class, d.key AS key, d.status AS status,
       d.resident AS resident, depth, essential_depth IS NOT NULL AS essential,
       from_entries
ORDER BY depth, entry_id
