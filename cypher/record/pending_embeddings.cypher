// Entries of one boundary that have no embedding yet, of sets at or below $up_to_seq (the
// boundary's seq when the caller began: a bounded pass), oldest set first, one batch.
// Record-side and mechanical: the caller only adds Entry.embedding and Entry.embedding_model.
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.embedding IS NULL AND coalesce(e.set_seq, 0) <= $up_to_seq
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body
ORDER BY e.set_seq, e.id
LIMIT $batch
