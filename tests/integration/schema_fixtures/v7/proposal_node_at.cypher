// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE INDEX proposal_node_at IF NOT EXISTS FOR (n:ProposalNode) ON (n.at)
