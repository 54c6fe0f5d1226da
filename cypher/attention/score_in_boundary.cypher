// A specialist's attention score in ONE boundary: the composite of its most recent selected
// proposal in that boundary (the default scope; attention/score.cypher is the global one).
// One seek on the composite index proposal_node_boundary_attention
// (boundary_id, specialist_id, selected, at), read backwards in index order: ordering by all four
// index properties (the first three are fixed by the equalities) lets the planner stop after the
// first `at` instead of sorting. Ties on `at` are broken by id, descending. No row for a
// specialist with no selected proposal in the boundary: another boundary's waves never count.
MATCH (p:ProposalNode)
USING INDEX SEEK p:ProposalNode(boundary_id, specialist_id, selected, at)
WHERE p.boundary_id = $boundary_id AND p.specialist_id = $specialist_id AND p.selected = true
  AND p.at IS NOT NULL
RETURN p.composite AS composite, p.id AS id
ORDER BY p.boundary_id DESC, p.specialist_id DESC, p.selected DESC, p.at DESC, p.id DESC
LIMIT 1
