// What the record says was decided for a proposal of one boundary: its set, that set's outcome
// and receipt.
MATCH (p:Proposal {boundary_id: $boundary_id, id: $proposal_id})
  USING INDEX SEEK p:Proposal(boundary_id, id)
OPTIONAL MATCH (s:Set {boundary_id: $boundary_id, id: p.set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
OPTIONAL MATCH (r)-[:FOR]->(s)
WHERE r.kind IN ['commit', 'halt', 'rejection']
WITH p, s, r ORDER BY r.at DESC
WITH p, s, collect(r)[0] AS r
OPTIONAL MATCH (h:Halt)-[:ON]->(s) WHERE h.status = 'open'
RETURN p.id AS proposal_id, p.status AS proposal_status, p.boundary_id AS boundary_id,
       s.id AS set_id, s.status AS set_status, s.seq AS seq, s.proposal_ids AS proposal_ids,
       r.id AS receipt_id, r.constitution_version AS constitution_version,
       r.reason_code AS reason_code, r.detail AS detail,
       r.suggested_amendment AS suggested_amendment, h.id AS halt_id,
       [(s)-[:CONTAINS]->(e:Entry) | e.id] AS entry_ids
