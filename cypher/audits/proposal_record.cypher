// Question: What did a writer propose, verbatim (the recorded payload), and what became of it?
// Parameters:
//   $boundary_id  the boundary the proposal was submitted to (a string)
//   $proposal_id  the proposal (a string; proposal ids are unique within their boundary)
// Expect: rows
MATCH (p:Proposal {boundary_id: $boundary_id, id: $proposal_id})
  USING INDEX SEEK p:Proposal(boundary_id, id)
RETURN p.id AS id, p.status AS status, p.set_id AS set_id, p.payload AS payload,
       p.digest AS digest, p.serial AS serial
