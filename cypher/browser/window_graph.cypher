// kg-context: the window (resident entries) and the REQUIRES edges that hold it
// Parameters: $boundary_id
MATCH (e:Entry:Resident)
WHERE e.boundary_id = $boundary_id
OPTIONAL MATCH p = (e)-[:REQUIRES]->(:Entry:Resident)
RETURN e, p
LIMIT 300
