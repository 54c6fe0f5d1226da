// The boundary's vector label ($label: kg_context/record/vector_index.py derives it from the
// boundary id) on up to $batch of the boundary's embedded entries that do not carry it yet
// (entries embedded before their boundary had its own vector index); a seek on the boundary id.
// Only a label is added: no property, status or residency changes. Idempotent.
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.embedding IS NOT NULL AND NOT $label IN labels(e)
WITH e LIMIT $batch
SET e:$($label)
RETURN count(e) AS labelled
