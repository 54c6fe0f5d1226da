// Composite range index: a boundary's pending proposals (the set constructor's input).
CREATE INDEX proposal_boundary_status IF NOT EXISTS FOR (n:Proposal) ON (n.boundary_id, n.status)
