// What the vector search of one boundary chooses by: how many entries the database holds (the
// count store: an upper bound of the vector index's size) and how many of the boundary's entries
// carry an embedding, counted no further than $cap (a seek on the boundary id, stopped early).
CALL () {
  MATCH (e:Entry)
  RETURN count(e) AS indexed
}
CALL () {
  MATCH (e:Entry {boundary_id: $boundary_id})
  WHERE e.embedding_model IS NOT NULL
  WITH e LIMIT $cap
  RETURN count(e) AS embedded
}
RETURN indexed, embedded
