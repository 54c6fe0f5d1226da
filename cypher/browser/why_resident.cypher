// kg-context: why is this entry resident? its shortest root path, drawn
// Parameters: $boundary_id, $entry_id, $root_classes (the constitution's [roots] classes, e.g.
//   ['goal', 'constraint', 'decision', 'obligation', 'plan', 'pin']), $default_lease (e.g. 100),
//   $recall_max_entries (e.g. 16), $recall_max_depth (e.g. 2), $successors (the constitution's
//   [roots] successors, e.g. true: a path may end at an entry the given one superseded, drawn
//   with its SUPERSEDES chain); leases count the work seq
CALL {
  MATCH (d:Entry)
  WHERE d.boundary_id = $boundary_id
    AND d.status IN ['live', 'revalidated', 'challenged', 'at_risk']
  MATCH (d)-[:REQUIRES {policy: 'reconstructible'}]->(t:Entry)
  WHERE t.status IN ['live', 'revalidated', 'challenged', 'at_risk']
  WITH DISTINCT t
  WHERE EXISTS { MATCH (t)<-[:SUMMARIZES]-(i:Entry)
                 WHERE i.status IN ['live', 'revalidated', 'challenged', 'at_risk'] }
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
MATCH (b:Boundary {id: $boundary_id})
WITH b, rebuildable, coalesce(b.work_seq, b.seq) AS work
MATCH (target:Entry {boundary_id: $boundary_id, id: $entry_id})
// The path ends at the entry itself or, under [roots] successors ($successors), at an entry it
// superseded (over a chain of executed SUPERSEDES in its boundary) that is now replaced: a held hard edge,
// or a soft one inside its lease, into that entry holds the standing entry in its place.
  USING INDEX SEEK target:Entry(boundary_id, id)
MATCH s = (target)-[:SUPERSEDES*0..]->(via:Entry)
WHERE all(x IN relationships(s) WHERE coalesce(x.executed, true))
  AND (via = target
   OR ($successors AND via.boundary_id = $boundary_id
       AND via.status IN ['superseded', 'invalidated']
       AND target.status IN ['live', 'revalidated', 'challenged', 'at_risk']))
WITH b, rebuildable, work, target, via, s
MATCH (root:Entry)
WHERE root.boundary_id = $boundary_id
  AND root.status IN ['live', 'revalidated', 'challenged', 'at_risk']
  AND (root.class IN $root_classes
       OR (coalesce(root.expires_after_seq, -1) > work AND coalesce(root.lease_root, true))
       OR coalesce(root.fresh_until_seq, -1) > work
       OR root.superseded_by_default = true)
MATCH p = shortestPath((root)-[:REQUIRES*0..]->(via))
WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
          OR endNode(r).foundational = true
          OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= work
              AND NOT (r.policy = 'reconstructible' AND endNode(r).id IN rebuildable)))
  AND all(n IN nodes(p) WHERE n.status IN ['live', 'revalidated', 'challenged', 'at_risk']
          OR (n = via AND via <> target))
  AND (via = target
       OR (length(p) > 0
           AND (last(relationships(p)).policy = 'hard'
                OR (last(relationships(p)).policy = 'soft'
                    AND coalesce(last(relationships(p)).lease_until_seq,
                                 coalesce(last(relationships(p)).set_work,
                                          last(relationships(p)).set_seq) + $default_lease)
                        >= work))))
RETURN p, s
ORDER BY via <> target, length(p)
LIMIT 1
