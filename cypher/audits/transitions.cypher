// Analyst audit: every declared status/residency change in a boundary, with what justified it.
MATCH (s:Set)-[t:TRANSITIONED]->(e:Entry)
WHERE s.boundary_id = $boundary_id
RETURN e.id AS entry_id, t.from AS from, t.to AS to, t.resident AS resident,
       t.was_resident AS was_resident, t.reason AS reason, t.justification AS justification,
       t.seq AS seq, s.id AS set_id, s.writer_id AS writer_id
ORDER BY t.seq, e.id
