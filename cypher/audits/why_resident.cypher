// Question: Why is this entry resident? The shortest root path that holds it: from a standing
//   root (an entry of a root class, one inside its own lease, or superseded_by_default) through
//   REQUIRES edges that are hard, or soft/reconstructible with a lease not yet expired at the
//   boundary's seq, over standing entries only. No row: no root holds it.
// Parameters:
//   $boundary_id   the boundary (a string)
//   $entry_id      the entry (a string)
//   $root_classes  the boundary constitution's [roots] classes (a list of strings); the default
//                  constitution's: ['goal', 'constraint', 'decision', 'obligation', 'plan', 'pin']
//   $default_lease the lease in sets of a soft edge that declared none (an integer; the default
//                  KG_CONTEXT_RESIDENCY_DEFAULT_LEASE_SETS is 100)
// Expect: rows
MATCH (b:Boundary {id: $boundary_id})
MATCH (target:Entry {boundary_id: $boundary_id, id: $entry_id})
MATCH (root:Entry)
WHERE root.boundary_id = $boundary_id
  AND root.status IN ['live', 'revalidated', 'challenged', 'at_risk']
  AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > b.seq
       OR root.superseded_by_default = true)
MATCH p = shortestPath((root)-[:REQUIRES*0..]->(target))
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR coalesce(r.lease_until_seq, r.set_seq + $default_lease) >= b.seq)
  AND all(n IN nodes(p) WHERE n.status IN ['live', 'revalidated', 'challenged', 'at_risk'])
RETURN target.id AS entry_id, target.status AS status, target.resident AS resident,
       b.seq AS seq, root.id AS root, length(p) AS hops,
       [n IN nodes(p) | n.id + ' [' + n.class + ', ' + n.status + ']'] AS path,
       [r IN relationships(p) | r.policy + CASE WHEN r.policy = 'hard' THEN ''
          ELSE ' (lease to seq ' + toString(coalesce(r.lease_until_seq,
                                                     r.set_seq + $default_lease)) + ')' END]
         AS edges
ORDER BY hops, root
LIMIT 1
