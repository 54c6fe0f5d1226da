// The verbatim payloads of some proposals.
MATCH (p:Proposal)
WHERE p.id IN $ids
RETURN p.id AS id, p.payload AS payload
