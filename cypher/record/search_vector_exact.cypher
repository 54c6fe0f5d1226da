// Nearest entries by embedding (cosine), exactly: every embedded entry of ONE boundary (a seek on
// its boundary id), the best $k, status-tagged with the set that committed each entry and the
// newest entry that superseded it (if any). $vector is unit length and so is every stored
// embedding (kg_context/record/search.py normalizes both), so ranking by Euclidean closeness is
// ranking by cosine (|a - b|^2 = 2 - 2 cos for unit vectors), and the server computes it in about
// half the time of vector.similarity.cosine; the $k kept are scored by vector.similarity.cosine
// (the score the cosine vector index returns). An entry without an embedding has no closeness and
// is left out. For a boundary small enough that ranking all of it is cheap, and for a larger one
// while its own vector index fills (kg_context/record/search.py chooses).
MATCH (node:Entry {boundary_id: $boundary_id})
WITH node, vector.similarity.euclidean(node.embedding, $vector) AS closeness
WHERE closeness IS NOT NULL
WITH node ORDER BY closeness DESC, node.id LIMIT $k
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(node)
WITH node, score, newer ORDER BY newer.set_seq DESC, newer.id
WITH node, score, collect(newer.id)[0] AS superseded_by
RETURN node.id AS entry_id, node.key AS key, node.set_id AS set_id, node.set_seq AS set_seq,
       node.status AS status, node.resident AS resident, superseded_by, score
ORDER BY score DESC, entry_id
