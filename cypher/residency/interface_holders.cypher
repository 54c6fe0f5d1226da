// For an interface entry: the entries that hold what it summarizes through a soft or
// reconstructible REQUIRES edge naming needs (the holders keep the interface resident).
MATCH (i:Entry {boundary_id: $boundary_id, id: $entry_id})-[:SUMMARIZES]->(held:Entry)<-[r:REQUIRES]-(d:Entry)
  USING INDEX SEEK i:Entry(boundary_id, id)
WHERE r.policy <> 'hard' AND size(coalesce(r.needs, [])) > 0 AND d.status IN $standing
  AND held.status = 'retired'
RETURN held.id AS held_id, d.id AS holder_id, r.needs AS needs
ORDER BY holder_id
