// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE INDEX proposal_node_specialist_id IF NOT EXISTS FOR (n:ProposalNode) ON (n.specialist_id)
