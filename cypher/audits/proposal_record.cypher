// Question: What did a writer propose, verbatim (the recorded payload), and what became of it?
// Parameters:
//   $proposal_id  the proposal (a string)
// Expect: rows
MATCH (p:Proposal {id: $proposal_id})
RETURN p.id AS id, p.status AS status, p.set_id AS set_id, p.payload AS payload,
       p.digest AS digest, p.serial AS serial
