// Uniqueness of Proposal.id.
CREATE CONSTRAINT proposal_id_unique IF NOT EXISTS FOR (n:Proposal) REQUIRE n.id IS UNIQUE
