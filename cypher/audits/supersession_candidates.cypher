// Question: Which entries were superseded (an executed SUPERSEDES) by an entry a later set
//   invalidated: a well-formed lie found out, so the entry it replaced may still be right?
//   (invalidated is final: the superseding entry is found by its status.) Candidates, not
//   verdicts: the operator reviews them (and may recall the superseded entry).
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (new:Entry) USING INDEX SEEK new:Entry(boundary_id, status)
WHERE new.boundary_id = b.id AND new.status = 'invalidated'
MATCH (new)-[r:SUPERSEDES]->(old:Entry {boundary_id: b.id}), (s:Set)-[t:TRANSITIONED]->(new)
WHERE r.executed AND t.to = 'invalidated' AND t.seq > r.seq
WITH b, old, new, r, s, t ORDER BY t.seq
WITH b, old, new, r, head(collect({seq: t.seq, set_id: s.id})) AS found
RETURN b.id AS boundary_id, old.id AS entry_id, old.key AS key, old.status AS status,
       old.resident AS resident, new.id AS superseded_by, r.seq AS superseded_at_seq,
       r.reason AS reason, found.seq AS invalidated_at_seq, found.set_id AS invalidated_by_set
ORDER BY boundary_id, superseded_at_seq, entry_id
