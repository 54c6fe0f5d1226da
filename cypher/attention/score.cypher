// A specialist's GLOBAL attention score (the explicit option; score_in_boundary.cypher is the
// default): the composite of its most recent selected proposal in any boundary.
// One seek on the composite index proposal_node_attention (specialist_id, selected, at) (the
// SEEK hint: on a near-empty index the planner may otherwise choose a scan), read
// backwards in index order: ordering by all three index properties (the first two are fixed by
// the equalities) lets the planner stop after the first `at` instead of sorting every proposal
// of the specialist. Ties on `at` are broken by id, descending. No row for an unknown specialist.
MATCH (p:ProposalNode)
USING INDEX SEEK p:ProposalNode(specialist_id, selected, at)
WHERE p.specialist_id = $specialist_id AND p.selected = true AND p.at IS NOT NULL
RETURN p.composite AS composite, p.id AS id
ORDER BY p.specialist_id DESC, p.selected DESC, p.at DESC, p.id DESC
LIMIT 1
