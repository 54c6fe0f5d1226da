// Question: What is the blast radius of a set: every entry derived (DERIVED_FROM, forward, up to
//   64 hops, the invalidation walk's default bound) from the entries the set committed, at its
//   least depth, and whether an essential-only path reaches it (those go at_risk when the set
//   fails; the others are only flagged)?
// Parameters:
//   $boundary_id  the boundary (a string)
//   $set_id       the set (a string)
// Expect: rows (both walks are pruned breadth-first expands per committed entry: each
//   descendant once, at its least depth, never every path; a chain 10,000 deep answers quickly)
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})-[:CONTAINS]->(failed:Entry)
  USING INDEX SEEK s:Set(boundary_id, id)
WITH collect(failed) AS sources
CALL (sources) {
  UNWIND sources AS failed
  CALL (failed) {
    MATCH p = (failed)<-[:DERIVED_FROM*1..64]-(x)
    WHERE all(r IN relationships(p) WHERE r.essential) AND x.boundary_id = $boundary_id
    RETURN DISTINCT x
  }
  RETURN collect(DISTINCT x.id) AS essential_ids
}
UNWIND sources AS failed
CALL (failed) {
  MATCH p = (failed)<-[:DERIVED_FROM*1..64]-(d)
  WHERE d.boundary_id = $boundary_id
  RETURN d, min(length(p)) AS depth
}
WITH d, min(depth) AS depth, collect(DISTINCT failed.id) AS from_entries, essential_ids
RETURN d.id AS entry_id, d.class AS class, d.key AS key, d.status AS status,
       d.resident AS resident, depth, d.id IN essential_ids AS essential, from_entries
ORDER BY depth, entry_id
