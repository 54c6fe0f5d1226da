// Question: What does a boundary's record hold: every entry with its record status and residency,
//   in ledger order?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id
RETURN e.id AS id, e.class AS class, labels(e) AS labels, e.key AS key, e.body AS body,
       e.status AS status, e.resident AS resident, e.tokens AS tokens, e.set_seq AS set_seq,
       e.set_id AS set_id, e.verse AS verse, e.writer_id AS writer_id
ORDER BY e.set_seq, e.id
