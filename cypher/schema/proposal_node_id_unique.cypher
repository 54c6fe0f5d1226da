// Uniqueness of ProposalNode.id.
CREATE CONSTRAINT proposal_node_id_unique IF NOT EXISTS FOR (n:ProposalNode) REQUIRE n.id IS UNIQUE
