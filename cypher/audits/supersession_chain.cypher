// Question: What supersedes what in a boundary, why, in which set, was it executed, and did a
//   constitution rule make it (rule: on_revision=supersede; null: the writer declared it)?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (new:Entry {boundary_id: $boundary_id})-[r:SUPERSEDES]->(old:Entry)
USING INDEX SEEK new:Entry(boundary_id)
RETURN new.id AS new_id, old.id AS old_id, new.key AS key, r.reason AS reason, r.seq AS seq,
       r.executed AS executed, r.rule AS rule, old.status AS old_status,
       old.resident AS old_resident
ORDER BY r.seq, new.id
