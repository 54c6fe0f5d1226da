// Analyst audit: entries of a boundary admitted from attention winners, and their proposals.
MATCH (e:Entry {boundary_id: $boundary_id})-[:ADMITTED_FROM]->(p:ProposalNode)
RETURN e.id AS entry, e.key AS key, e.status AS status, p.id AS proposal, p.outcome AS outcome
ORDER BY p.id
