// Entries of one boundary that wait for an embedding (the gate marks every new entry
// embedding_pending), of sets at or below $up_to_seq (the boundary's seq when the caller began:
// a bounded pass), oldest set first, one batch: a seek on (boundary_id, embedding_pending), so
// the cost is the pending entries', never the boundary's whole record.
// Record-side and mechanical: the caller only adds Entry.embedding and Entry.embedding_model.
MATCH (e:Entry {boundary_id: $boundary_id, embedding_pending: true})
USING INDEX SEEK e:Entry(boundary_id, embedding_pending)
WHERE coalesce(e.set_seq, 0) <= $up_to_seq
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body
ORDER BY e.set_seq, e.id
LIMIT $batch
