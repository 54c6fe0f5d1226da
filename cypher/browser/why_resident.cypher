// kg-context: why is this entry resident? its shortest root path, drawn
// Parameters: $boundary_id, $entry_id, $root_classes (the constitution's [roots] classes, e.g.
//   ['goal', 'constraint', 'decision', 'obligation', 'plan', 'pin']), $default_lease (e.g. 100)
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
RETURN p
ORDER BY length(p)
LIMIT 1
