// Attach embeddings to entries of one boundary (idempotent; touches neither status nor
// residency).
// $rows: [{id, embedding}]
UNWIND $rows AS row
MATCH (e:Entry {boundary_id: $boundary_id, id: row.id})
WHERE e.embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
SET e.embedding_model = $model
RETURN count(e) AS written
