// The pending proposals of a boundary, in submission order (the set constructor's input):
// ids and digests only; payloads are fetched for those this process does not hold already.
MATCH (p:Proposal)
WHERE p.boundary_id = $boundary_id AND p.status = 'pending'
RETURN p.id AS id, p.digest AS digest
ORDER BY p.serial
LIMIT $limit
