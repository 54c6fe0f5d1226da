// Nearest entries by embedding (cosine), exactly: every embedded entry of ONE boundary (a seek on
// its boundary id), ranked by vector.similarity.cosine (the same score the cosine vector index
// returns), the best $k, status-tagged like search_vector.cypher. For boundaries small enough
// that ranking all of them is cheap (KG_CONTEXT_SEARCH_EXACT_MAX_ENTRIES).
MATCH (node:Entry {boundary_id: $boundary_id})
WHERE node.embedding IS NOT NULL
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(node)
WITH node, score, newer ORDER BY newer.set_seq DESC, newer.id
WITH node, score, collect(newer.id)[0] AS superseded_by
RETURN node.id AS entry_id, node.key AS key, node.set_id AS set_id, node.set_seq AS set_seq,
       node.status AS status, node.resident AS resident, superseded_by, score
ORDER BY score DESC, entry_id
