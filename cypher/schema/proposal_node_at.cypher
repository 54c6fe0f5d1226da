// Range index: ProposalNode.at (queries filter on it).
CREATE INDEX proposal_node_at IF NOT EXISTS FOR (n:ProposalNode) ON (n.at)
