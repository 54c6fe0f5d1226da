// What the vector search of one boundary chooses by: how many entries the database holds (the
// count store: an upper bound of the vector index's size), how many entries the boundary holds
// (a count over its boundary id index: no entry is read) and how many of them carry an
// embedding, counted no further than $cap (a seek on the boundary id, stopped early). The
// boundary's share of the database sizes the index path's first request.
CALL () {
  MATCH (e:Entry)
  RETURN count(e) AS indexed
}
CALL () {
  MATCH (e:Entry {boundary_id: $boundary_id})
  RETURN count(e) AS entries
}
CALL () {
  MATCH (e:Entry {boundary_id: $boundary_id})
  WHERE e.embedding_model IS NOT NULL
  WITH e LIMIT $cap
  RETURN count(e) AS embedded
}
RETURN indexed, entries, embedded
