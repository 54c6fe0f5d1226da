// Residency by reachability: every standing entry of the boundary reachable from a root through
// REQUIRES edges that hold at work seq $work. An edge holds when it is hard; or when its target
// is foundational (an operator's mark); or when its lease is unexpired (lease_until_seq, or
// set_work/set_seq + $default_lease when the edge declared none, at least $work; leases count
// the boundary's work, never the czar's compaction sets) and it is not a reconstructible edge
// whose target can be rebuilt from the record. Rebuildable: a standing interface summarizes it,
// or recall rebuilds it whole (its body is not empty and its REQUIRES closure, itself included,
// has at most $recall_max_entries entries, none further than $recall_max_depth hops: what
// residency/recall admit copies without a cut). Roots: standing entries of a root class,
// standing entries still inside their own lease (expires_after_seq > $work), and standing
// superseded_by_default entries (they hold until a newer entry of their key stands; then the
// czar retires them). The walk starts from the (boundary_id, status) index and only ever steps
// onto standing entries, so retired history is never scanned.
// Then: interfaces (standing, SUMMARIZES a non-standing entry) held by a reached entry through a
// soft/reconstructible edge that names needs.
CALL {
  MATCH (d:Entry)
  USING INDEX SEEK d:Entry(boundary_id, status)
  WHERE d.boundary_id = $boundary_id AND d.status IN $standing
  MATCH (d)-[:REQUIRES {policy: 'reconstructible'}]->(t:Entry)
  WHERE t.status IN $standing
  WITH DISTINCT t
  WHERE EXISTS { MATCH (t)<-[:SUMMARIZES]-(i:Entry) WHERE i.status IN $standing }
     OR (size(coalesce(t.body, '')) > 0
         AND CASE WHEN COUNT { MATCH (t)-[:REQUIRES*0..]->(x:Entry) RETURN DISTINCT x }
                       <= $recall_max_entries
             THEN NOT EXISTS {
                    MATCH (t)-[:REQUIRES*0..]->(x:Entry)
                    WHERE NOT EXISTS { MATCH q = (t)-[:REQUIRES*0..]->(x)
                                       WHERE length(q) <= $recall_max_depth } }
             ELSE false END)
  RETURN collect(t.id) AS rebuildable
}
MATCH (root:Entry)
USING INDEX SEEK root:Entry(boundary_id, status)
WHERE root.boundary_id = $boundary_id AND root.status IN $standing
  AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > $work
       OR root.superseded_by_default = true)
MATCH p = (root)-[:REQUIRES*0..]->(e:Entry)
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR endNode(r).foundational = true
          OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= $work
              AND NOT (r.policy = 'reconstructible' AND endNode(r).id IN rebuildable)))
  AND all(n IN nodes(p) WHERE n.status IN $standing)
WITH collect(DISTINCT e) AS entries
// The interfaces in one subquery over the reached entries (concatenating one list per entry in a
// reduce copied the accumulator each step: quadratic in live entries).
RETURN [e IN entries | e.id] AS reached,
       COLLECT { UNWIND entries AS e
                 MATCH (e)-[r:REQUIRES]->(held:Entry)<-[:SUMMARIZES]-(i:Entry)
                 WHERE r.policy <> 'hard' AND size(coalesce(r.needs, [])) > 0
                   AND NOT held.status IN $standing AND i.status IN $standing
                 RETURN DISTINCT i.id } AS interfaces
