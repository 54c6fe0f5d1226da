// Soft/reconstructible REQUIRES edges out of the boundary's standing entries that stopped
// holding at work seq $work: their lease ran out (lease_until_seq, or set_work/set_seq +
// $default_lease when none was declared) and their target is not foundational. (A
// reconstructible edge whose target can be rebuilt holds nothing while its lease runs either:
// residency/reachable decides that; this lists what ran out.)
MATCH (d:Entry)
USING INDEX SEEK d:Entry(boundary_id, status)
WHERE d.boundary_id = $boundary_id AND d.status IN $standing
MATCH (d)-[r:REQUIRES]->(t:Entry)
WHERE r.policy <> 'hard' AND coalesce(t.foundational, false) = false
  AND coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) < $work
RETURN d.id AS from_id, t.id AS to_id, r.policy AS policy,
       coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) AS lease_until,
       coalesce(r.needs, []) AS needs
ORDER BY to_id, from_id
