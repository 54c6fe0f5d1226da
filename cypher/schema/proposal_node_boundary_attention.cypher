// Composite range index for per-boundary attention: a specialist's selected proposals in one
// boundary by time (boundary_id, specialist_id, selected, at). get_attention_score and the
// track records seek it (the global scope seeks proposal_node_attention).
CREATE INDEX proposal_node_boundary_attention IF NOT EXISTS
FOR (n:ProposalNode) ON (n.boundary_id, n.specialist_id, n.selected, n.at)
