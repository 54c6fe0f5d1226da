// The pending proposals of a boundary, in submission order (the set constructor's input).
MATCH (p:Proposal)
WHERE p.boundary_id = $boundary_id AND p.status = 'pending'
RETURN p.id AS id, p.payload AS payload
ORDER BY p.serial
LIMIT $limit
