// The resident part of the history index: the index lines of the last $resident_last seqs of
// one boundary (the constitution's [history_index] policy), oldest first (index seek on
// (boundary_id, seq)).
MATCH (b:Boundary {id: $boundary_id})
MATCH (i:IndexEntry)
WHERE i.boundary_id = b.id AND i.seq > b.seq - $resident_last
RETURN i.set_id AS set_id, i.seq AS seq, i.kind AS kind, i.summary AS summary,
       coalesce(i.tokens, 0) AS tokens
ORDER BY seq
