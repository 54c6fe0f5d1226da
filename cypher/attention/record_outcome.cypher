// An outcome reported for one proposal outside the broadcast path (an orchestrator own review,
// or an invalidation reported before the entry status records it). Within the reporter's
// boundary ($boundary_id): a ProposalNode of another boundary is not found, so a report can never
// move a specialist's track record in a boundary it was not made for ($boundary_id null: a
// reporter with no boundary, global scope). Returns nothing if unknown.
MATCH (p:ProposalNode {id: $proposal_id})
WHERE $boundary_id IS NULL OR p.boundary_id = $boundary_id
SET p.outcome = $outcome, p.outcome_at = $at
RETURN p.id AS id
