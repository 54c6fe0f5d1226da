// Entries of one boundary that wait for an embedding (the gate marks every new entry
// embedding_pending), oldest set first, one batch: a seek on (boundary_id, embedding_pending),
// so the cost is the pending entries', never the boundary's whole record.
// Record-side and mechanical: the caller only adds Entry.embedding and Entry.embedding_model.
MATCH (e:Entry {boundary_id: $boundary_id, embedding_pending: true})
USING INDEX e:Entry(boundary_id, embedding_pending)
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body
ORDER BY e.set_seq, e.id
LIMIT $batch
