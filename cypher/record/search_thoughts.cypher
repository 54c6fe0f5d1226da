// Fulltext over the thoughts of ONE boundary (attention ProposalNodes and bus proposals, both
// labelled Thought: winners, losers and inhibited alike), with what each came to. $query filters
// inside the index (`+boundary_token:<token> +(words)`, kg_context/db/text_index.py), so Lucene
// ranks only the boundary's thoughts and the top $k are exactly the boundary's top $k; the
// boundary_id check below keeps even a token collision out. A ProposalNode stores neither its
// writer nor its source (its specialist_id is its writer; $attention_source, its label says);
// nodes written before keep both.
CALL db.index.fulltext.queryNodes('thought_text_fulltext', $query, {limit: $k})
YIELD node, score
WHERE node.boundary_id = $boundary_id
RETURN node.id AS id,
       coalesce(node.thought_source,
                CASE WHEN node:ProposalNode THEN $attention_source END) AS source,
       coalesce(node.writer_id, node.specialist_id) AS writer_id,
       coalesce(node.wave_id, node.broadcast_id) AS contest_id, node.cycle AS cycle,
       node.kind AS kind, node.key AS key, node.thought_outcome AS outcome,
       node.thought_reason AS reason, node.inhibited_by AS inhibited_by,
       coalesce(node.gate_outcome, node.outcome) AS gate_outcome, node.set_id AS set_id,
       node.text AS text, node.text_truncated AS truncated, node.text_chars AS chars,
       node.text_bound AS bound, node.at AS at, score
ORDER BY score DESC, id
LIMIT $k
