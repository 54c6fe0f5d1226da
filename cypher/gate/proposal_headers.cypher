// What a proposal's node says of it beside its payload (for one whose payload cannot be
// parsed): its writer and its digest.
UNWIND $ids AS proposal_id
MATCH (p:Proposal {boundary_id: $boundary_id, id: proposal_id})
  USING INDEX SEEK p:Proposal(boundary_id, id)
RETURN p.id AS id, p.writer_id AS writer_id, p.digest AS digest
