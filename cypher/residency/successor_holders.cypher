// Under the constitution's [roots] successors: the standing entries whose REQUIRES edge holds at
// work seq $work (hard, or soft inside its lease) into an entry that $entry_id superseded (over
// a chain of executed SUPERSEDES, in its boundary) that is now replaced (status in $replaced): each
// holder with the replaced entry its edge points at. residency/reachable holds $entry_id
// through these edges; why() shows the root path to a holder.
MATCH q = (s:Entry {boundary_id: $boundary_id, id: $entry_id})-[:SUPERSEDES*1..]->(t:Entry)
  USING INDEX SEEK s:Entry(boundary_id, id)
WHERE all(x IN relationships(q) WHERE coalesce(x.executed, true))
MATCH (t)<-[r:REQUIRES]-(d:Entry)
WHERE t.boundary_id = $boundary_id AND t.status IN $replaced AND d.status IN $standing
  AND (r.policy = 'hard'
       OR (r.policy = 'soft'
           AND coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease)
               >= $work))
RETURN DISTINCT d.id AS holder_id, t.id AS replaced_id
ORDER BY holder_id, replaced_id
