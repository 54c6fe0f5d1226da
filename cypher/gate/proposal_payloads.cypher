// The verbatim payloads of some proposals of one boundary.
MATCH (p:Proposal)
WHERE p.boundary_id = $boundary_id AND p.id IN $ids
RETURN p.id AS id, p.payload AS payload
