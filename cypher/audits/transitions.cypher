// Question: Every declared status or residency change in a boundary: the case it cited, the
//   failed ancestors it answers to, and the evidence that justified it.
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (s:Set {boundary_id: $boundary_id})-[t:TRANSITIONED]->(e:Entry)
USING INDEX SEEK s:Set(boundary_id)
RETURN e.id AS entry_id, t.from AS from, t.to AS to, t.resident AS resident,
       t.was_resident AS was_resident, t.reason AS reason, t.case AS case,
       t.failed_ancestors AS failed_ancestors, t.justification AS justification,
       t.seq AS seq, s.id AS set_id, s.writer_id AS writer_id
ORDER BY t.seq, e.id
