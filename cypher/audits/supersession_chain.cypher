// Question: What supersedes what in a boundary, why, in which set, and was it executed?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (new:Entry {boundary_id: $boundary_id})-[r:SUPERSEDES]->(old:Entry)
USING INDEX new:Entry(boundary_id)
RETURN new.id AS new_id, old.id AS old_id, new.key AS key, r.reason AS reason, r.seq AS seq,
       r.executed AS executed, old.status AS old_status, old.resident AS old_resident
ORDER BY r.seq, new.id
