// Uniqueness of Proposal.id within its boundary: (boundary_id, id); a proposal id is an
// idempotency key of its boundary.
CREATE CONSTRAINT proposal_id_in_boundary_unique IF NOT EXISTS
FOR (n:Proposal) REQUIRE (n.boundary_id, n.id) IS UNIQUE
