// Schema version 10 on thoughts written before it (ProposalNodes and bus proposals), one batch:
// the boundary token cut to its first $length characters, which is the token now written for the
// same boundary (kg_context/db/text_index.py). Touches nothing else; idempotent (only longer
// tokens change; a thought with no boundary has no token).
MATCH (t:Thought)
WHERE size(t.boundary_token) > $length
WITH t LIMIT $batch
SET t.boundary_token = left(t.boundary_token, $length)
RETURN count(t) AS written
