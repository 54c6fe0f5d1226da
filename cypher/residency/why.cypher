// The shortest root path that keeps one entry resident (same rules as residency/reachable):
// nodes and edges along it, or no row when no root reaches the entry.
MATCH (target:Entry {boundary_id: $boundary_id, id: $entry_id})
MATCH (root:Entry)
USING INDEX SEEK root:Entry(boundary_id, status)
WHERE root.boundary_id = $boundary_id AND root.status IN $standing
  AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > $seq
       OR root.superseded_by_default = true)
MATCH p = shortestPath((root)-[:REQUIRES*0..]->(target))
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR coalesce(r.lease_until_seq, r.set_seq + $default_lease) >= $seq)
  AND all(n IN nodes(p) WHERE n.status IN $standing)
RETURN [n IN nodes(p) | {id: n.id, class: n.class, key: n.key, status: n.status,
                         expires_after_seq: n.expires_after_seq}] AS nodes,
       [r IN relationships(p) | {policy: r.policy, set_seq: r.set_seq,
                                 lease_until_seq: r.lease_until_seq}] AS edges
ORDER BY size(edges), root.id
LIMIT 1
