// Schema version 3 on entries written before it, one batch of one boundary: the boundary as one
// fulltext token (boundary_token, computed by kg_context/db/text_index.py), and the embedding
// work-queue marker on entries not embedded yet. Neither touches status, residency or content;
// idempotent (only entries without a token are touched).
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.boundary_token IS NULL
WITH e LIMIT $batch
SET e.boundary_token = $token,
    e.embedding_pending = CASE WHEN e.embedding IS NULL THEN true END
RETURN count(e) AS written
