// Attach embeddings to entries of one boundary and clear their work-queue marker (idempotent;
// touches neither status nor residency; an entry embedded already keeps its embedding).
// $rows: [{id, embedding}]
UNWIND $rows AS row
MATCH (e:Entry {boundary_id: $boundary_id, id: row.id})
REMOVE e.embedding_pending
WITH e, row
WHERE e.embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
SET e.embedding_model = $model
RETURN count(e) AS written
