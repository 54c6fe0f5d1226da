// An outcome reported for one proposal outside the broadcast path (an orchestrator own review,
// or an invalidation reported before the entry status records it). Returns nothing if unknown.
MATCH (p:ProposalNode {id: $proposal_id})
SET p.outcome = $outcome, p.outcome_at = $at
RETURN p.id AS id
