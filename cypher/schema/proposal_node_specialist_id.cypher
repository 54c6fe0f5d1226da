// Range index: ProposalNode.specialist_id (queries filter on it).
CREATE INDEX proposal_node_specialist_id IF NOT EXISTS FOR (n:ProposalNode) ON (n.specialist_id)
