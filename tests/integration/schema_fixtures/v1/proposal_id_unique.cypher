// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Uniqueness of Proposal.id.
CREATE CONSTRAINT proposal_id_unique IF NOT EXISTS FOR (n:Proposal) REQUIRE n.id IS UNIQUE
