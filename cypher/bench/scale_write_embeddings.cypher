// Benchmark only (the scale benchmark's build): attach embeddings to entries of one boundary and
// clear their work-queue marker, as record/write_embeddings does, with the ids and the vectors as
// two parallel lists ($vectors: one 2-D array, which the driver sends without formatting every
// number for its debug log), and the boundary's vector label ($label). Idempotent; an entry
// embedded already keeps its embedding.
UNWIND range(0, size($ids) - 1) AS i
WITH i, $ids[i] AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
REMOVE e.embedding_pending
SET e:$($label)
WITH e, i
WHERE e.embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', $vectors[i])
SET e.embedding_model = $model
RETURN count(e) AS written
