// The governed history index: the index lines of a boundary's ratified sets in ledger order (seq
// from..to, at most $limit; index seek on (boundary_id, seq)), each with the one summary line the
// gate built and ratified with the set, its tokens, and where the set's entries stand now.
MATCH (i:IndexEntry)
WHERE i.boundary_id = $boundary_id AND i.seq >= $from_seq AND i.seq <= $to_seq
WITH i ORDER BY i.seq
LIMIT $limit
MATCH (i)-[:INDEXES]->(s:Set)
RETURN s.id AS set_id, i.seq AS seq, i.kind AS kind, s.status AS status,
       s.writer_id AS writer_id, i.summary AS summary, i.tokens AS tokens,
       [(s)-[:CONTAINS]->(e:Entry) | e.status] AS entry_statuses
ORDER BY seq
