// Analyst audit: a proposal of a boundary as recorded (verbatim payload), and what became of it.
MATCH (p:Proposal {boundary_id: $boundary_id, id: $proposal_id})
RETURN p.id AS id, p.status AS status, p.set_id AS set_id, p.payload AS payload,
       p.digest AS digest, p.serial AS serial
