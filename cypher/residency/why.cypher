// The shortest root path that keeps one entry resident (same rules as residency/reachable,
// at work seq $work): nodes and edges along it (each edge with its policy, the work seq its
// lease runs to, its last renewal, and whether its target is foundational and by whose mark),
// or no row when no root reaches the entry.
CALL {
  MATCH (d:Entry)
  USING INDEX SEEK d:Entry(boundary_id, status)
  WHERE d.boundary_id = $boundary_id AND d.status IN $standing
  MATCH (d)-[:REQUIRES {policy: 'reconstructible'}]->(t:Entry)
  WHERE t.status IN $standing
  WITH DISTINCT t
  WHERE EXISTS { MATCH (t)<-[:SUMMARIZES]-(i:Entry) WHERE i.status IN $standing }
     OR (size(coalesce(t.body, '')) > 0
         AND CASE WHEN COUNT { MATCH (t)-[:REQUIRES*0..]->(x:Entry) RETURN DISTINCT x LIMIT $recall_max_entries + 1 }
                       <= $recall_max_entries
             THEN NOT EXISTS {
                    MATCH (t)-[:REQUIRES*0..]->(x:Entry)
                    WHERE NOT EXISTS { MATCH q = (t)-[:REQUIRES*0..]->(x)
                                       WHERE length(q) <= $recall_max_depth } }
             ELSE false END)
  RETURN collect(t.id) AS rebuildable
}
MATCH (target:Entry {boundary_id: $boundary_id, id: $entry_id})
  USING INDEX SEEK target:Entry(boundary_id, id)
MATCH (root:Entry)
USING INDEX SEEK root:Entry(boundary_id, status)
WHERE root.boundary_id = $boundary_id AND root.status IN $standing
  AND (root.class IN $root_classes
       OR (coalesce(root.expires_after_seq, -1) > $work AND coalesce(root.lease_root, true))
       OR coalesce(root.fresh_until_seq, -1) > $work
       OR root.superseded_by_default = true)
MATCH p = shortestPath((root)-[:REQUIRES*0..]->(target))
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR endNode(r).foundational = true
          OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= $work
              AND NOT (r.policy = 'reconstructible' AND endNode(r).id IN rebuildable)))
  AND all(n IN nodes(p) WHERE n.status IN $standing)
RETURN [n IN nodes(p) | {id: n.id, class: n.class, key: n.key, status: n.status,
                         expires_after_seq: n.expires_after_seq}] AS nodes,
       [r IN relationships(p) | {policy: r.policy, set_seq: r.set_seq,
                                 lease_until_seq: coalesce(r.lease_until_seq,
                                   coalesce(r.set_work, r.set_seq) + $default_lease),
                                 renewed_at_seq: r.renewed_at_seq, renewed_by: r.renewed_by,
                                 renewal_kind: r.renewal_kind,
                                 foundational: coalesce(endNode(r).foundational, false),
                                 foundational_by: endNode(r).foundational_by,
                                 foundational_seq: endNode(r).foundational_seq}] AS edges
ORDER BY size(edges), root.id
LIMIT 1
