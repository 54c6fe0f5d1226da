// Composite range index for get_attention_score: a specialist's selected proposals by time.
CREATE INDEX proposal_node_attention IF NOT EXISTS FOR (n:ProposalNode) ON (n.specialist_id, n.selected, n.at)
