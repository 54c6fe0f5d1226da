// Nearest entries of ONE boundary by embedding, through the boundary's own vector index ($name,
// over the boundary's vector label only): its $candidates approximate nearest neighbours,
// re-ranked by the exact cosine of the stored embeddings (the index quantizes its vectors), the
// best $k kept, status-tagged like search_vector_exact.cypher. The boundary check is a guard: only
// write_embeddings.cypher labels an entry, and only with its own boundary's label.
CALL db.index.vector.queryNodes($name, $candidates, $vector)
YIELD node
WHERE node.boundary_id = $boundary_id
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id LIMIT $k
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(node)
WITH node, score, newer ORDER BY newer.set_seq DESC, newer.id
WITH node, score, collect(newer.id)[0] AS superseded_by
RETURN node.id AS entry_id, node.key AS key, node.set_id AS set_id, node.set_seq AS set_seq,
       node.status AS status, node.resident AS resident, superseded_by, score
ORDER BY score DESC, entry_id
