// The failed node of an invalidation: one entry by id, or every entry a set contains, in one
// boundary, with its current status (the walk starts from these).
OPTIONAL MATCH (e:Entry {boundary_id: $boundary_id, id: $target})
  USING INDEX SEEK e:Entry(boundary_id, id)
WITH collect(e) AS direct
OPTIONAL MATCH (s:Set {boundary_id: $boundary_id, id: $target})-[:CONTAINS]->(c:Entry)
  USING INDEX SEEK s:Set(boundary_id, id)
WITH direct, collect(c) AS contained
UNWIND (CASE WHEN size(direct) > 0 THEN direct ELSE contained END) AS e
RETURN e.id AS id, e.status AS status, e.class AS class, e.set_seq AS set_seq
ORDER BY e.id
