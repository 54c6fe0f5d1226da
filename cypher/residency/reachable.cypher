// Residency by reachability: every standing entry of the boundary reachable from a root through
// REQUIRES edges that are hard, or soft/reconstructible with an unexpired lease (lease_until_seq,
// or set_seq + $default_lease when the edge declared none, at least $seq). Roots: standing
// entries of a root class, standing entries still inside their own lease
// (expires_after_seq > $seq), and standing superseded_by_default entries (they hold until a
// newer entry of their key stands; then the czar retires them). The walk starts from the
// (boundary_id, status) index and only ever steps onto standing entries, so retired history is
// never scanned.
// Then: interfaces (standing, SUMMARIZES a non-standing entry) held by a reached entry through a
// soft/reconstructible edge that names needs.
MATCH (root:Entry)
USING INDEX SEEK root:Entry(boundary_id, status)
WHERE root.boundary_id = $boundary_id AND root.status IN $standing
  AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > $seq
       OR root.superseded_by_default = true)
MATCH p = (root)-[:REQUIRES*0..]->(e:Entry)
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR coalesce(r.lease_until_seq, r.set_seq + $default_lease) >= $seq)
  AND all(n IN nodes(p) WHERE n.status IN $standing)
WITH DISTINCT e
CALL (e) {
  OPTIONAL MATCH (e)-[r:REQUIRES]->(held:Entry)<-[:SUMMARIZES]-(i:Entry)
  WHERE r.policy <> 'hard' AND size(coalesce(r.needs, [])) > 0
    AND NOT held.status IN $standing AND i.status IN $standing
  RETURN collect(i.id) AS interfaces
}
WITH collect(e.id) AS reached, collect(interfaces) AS nested
RETURN reached, reduce(acc = [], ids IN nested | acc + ids) AS interfaces
