// Soft/reconstructible REQUIRES edges out of the boundary's standing entries whose lease has run
// out at $seq (lease_until_seq, or set_seq + $default_lease when none was declared).
MATCH (d:Entry)
USING INDEX SEEK d:Entry(boundary_id, status)
WHERE d.boundary_id = $boundary_id AND d.status IN $standing
MATCH (d)-[r:REQUIRES]->(t:Entry)
WHERE r.policy <> 'hard' AND coalesce(r.lease_until_seq, r.set_seq + $default_lease) < $seq
RETURN d.id AS from_id, t.id AS to_id, r.policy AS policy,
       coalesce(r.lease_until_seq, r.set_seq + $default_lease) AS lease_until,
       coalesce(r.needs, []) AS needs
ORDER BY to_id, from_id
