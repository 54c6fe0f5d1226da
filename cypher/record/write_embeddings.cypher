// Attach embeddings to entries of one boundary and clear their work-queue marker (idempotent;
// touches neither status nor residency; an entry embedded already keeps its embedding), and give
// each the boundary's vector label ($label: the boundary's own vector index covers it once the
// boundary has one; kg_context/record/vector_index.py).
// $rows: [{id, embedding}]
UNWIND $rows AS row
MATCH (e:Entry {boundary_id: $boundary_id, id: row.id})
  USING INDEX SEEK e:Entry(boundary_id, id)
REMOVE e.embedding_pending
SET e:$($label)
WITH e, row
WHERE e.embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
SET e.embedding_model = $model
RETURN count(e) AS written
