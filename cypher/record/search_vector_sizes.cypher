// What the vector search of one boundary chooses by: how many of its entries carry an
// embedding, counted no further than $cap (a seek on the boundary id, stopped early): past the
// exact bound the boundary is searched through its own vector index once that is online.
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.embedding_model IS NOT NULL
WITH e LIMIT $cap
RETURN count(e) AS embedded
