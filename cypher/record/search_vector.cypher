// Nearest entries by embedding (cosine) through the shared vector index: the $candidates
// nearest across every boundary, of which this boundary's best $k, status-tagged with the set
// that committed each entry and the newest entry that superseded it (if any). The caller widens
// $candidates until $k rows come back or the index is exhausted (kg_context/record/search.py).
CALL db.index.vector.queryNodes('entry_embedding_vector', $candidates, $vector)
YIELD node, score
WHERE node.boundary_id = $boundary_id
WITH node, score ORDER BY score DESC, node.id LIMIT $k
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(node)
WITH node, score, newer ORDER BY newer.set_seq DESC, newer.id
WITH node, score, collect(newer.id)[0] AS superseded_by
RETURN node.id AS entry_id, node.key AS key, node.set_id AS set_id, node.set_seq AS set_seq,
       node.status AS status, node.resident AS resident, superseded_by, score
ORDER BY score DESC, entry_id
