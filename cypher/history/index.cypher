// The history index: the ratified sets of a boundary in ledger order (seq from..to, at most
// $limit), each with its one summary line and where its entries stand now (statuses).
MATCH (s:Set)
WHERE s.boundary_id = $boundary_id AND s.status = 'ratified'
  AND s.seq >= $from_seq AND s.seq <= $to_seq
WITH s ORDER BY s.seq
LIMIT $limit
RETURN s.id AS set_id, s.seq AS seq, s.kind AS kind, s.status AS status,
       s.writer_id AS writer_id, s.summary AS summary,
       [(s)-[:CONTAINS]->(e:Entry) | e.status] AS entry_statuses
ORDER BY seq
