// Question: Which entries of a boundary were admitted from attention winners, and from which
//   ProposalNodes (with the outcome recorded on each)?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (e:Entry {boundary_id: $boundary_id})-[:ADMITTED_FROM]->(p:ProposalNode)
USING INDEX SEEK e:Entry(boundary_id)
RETURN e.id AS entry, e.key AS key, e.status AS status, p.id AS proposal, p.outcome AS outcome
ORDER BY p.id
