// Analyst audit: a proposal as recorded (verbatim payload), and what became of it.
MATCH (p:Proposal {id: $proposal_id})
RETURN p.id AS id, p.status AS status, p.set_id AS set_id, p.payload AS payload,
       p.digest AS digest, p.serial AS serial
