// Fulltext matches over entry keys and bodies of ONE boundary, status-tagged with the set that
// committed each entry and the newest entry that superseded it (if any). $query filters inside
// the index (`+boundary_token:<token> +(words)`, kg_context/db/text_index.py), so Lucene ranks
// only the boundary's entries and the top $k are exactly the boundary's top $k, whatever other
// boundaries hold; the boundary_id check below keeps even a token collision out.
CALL db.index.fulltext.queryNodes('entry_body_fulltext', $query, {limit: $k})
YIELD node, score
WHERE node.boundary_id = $boundary_id
WITH node, score ORDER BY score DESC, node.id LIMIT $k
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(node)
WITH node, score, newer ORDER BY newer.set_seq DESC, newer.id
WITH node, score, collect(newer.id)[0] AS superseded_by
RETURN node.id AS entry_id, node.key AS key, node.set_id AS set_id, node.set_seq AS set_seq,
       node.status AS status, node.resident AS resident, superseded_by, score
ORDER BY score DESC, entry_id
