// Question: Why is this entry resident? The shortest root path that holds it: from a standing
//   root (an entry of a root class, one inside its own lease, or superseded_by_default) through
//   REQUIRES edges that hold at the boundary's work seq (its sets but the czar's: the lease
//   clock): hard; into a foundational entry; or soft/reconstructible with a lease not yet
//   expired, a reconstructible one only while its target cannot be rebuilt from the record (an
//   interface summarizes it, or recall rebuilds it whole within the recall caps). Over
//   standing entries only. Under [roots] successors, a standing entry with no path of its own is
//   held in place of an entry it superseded that a held hard edge (or soft one inside its lease)
//   requires: the path ends at that entry, named in_place_of. No row: no root holds it.
// Parameters:
//   $boundary_id   the boundary (a string)
//   $entry_id      the entry (a string)
//   $root_classes  the boundary constitution's [roots] classes (a list of strings); the default
//                  constitution's: ['goal', 'constraint', 'decision', 'obligation', 'plan', 'pin']
//   $default_lease the lease in sets of a soft edge that declared none (an integer; the default
//                  KG_CONTEXT_RESIDENCY_DEFAULT_LEASE_SETS is 100)
//   $recall_max_entries recall's entry cap (an integer; KG_CONTEXT_RESIDENCY_RECALL_MAX_ENTRIES, 16)
//   $recall_max_depth recall's depth cap (an integer; KG_CONTEXT_RESIDENCY_RECALL_MAX_DEPTH, 2)
//   $successors    the constitution's [roots] successors (a boolean; the default constitution's:
//                  true)
// Expect: rows
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
MATCH sp = (target)-[:SUPERSEDES*0..]->(via:Entry)
WHERE all(x IN relationships(sp) WHERE coalesce(x.executed, true))
  AND (via = target
   OR ($successors AND via.boundary_id = $boundary_id
       AND via.status IN ['superseded', 'invalidated']
       AND target.status IN ['live', 'revalidated', 'challenged', 'at_risk']))
WITH DISTINCT b, rebuildable, work, target, via
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
RETURN target.id AS entry_id, target.status AS status, target.resident AS resident,
       b.seq AS seq, work AS work_seq, root.id AS root, length(p) AS hops,
       CASE WHEN via <> target THEN via.id END AS in_place_of,
       [n IN nodes(p) | n.id + ' [' + n.class + ', ' + n.status + ']'] AS path,
       [r IN relationships(p) | r.policy + CASE WHEN r.policy = 'hard' THEN ''
          WHEN endNode(r).foundational = true
          THEN ' (foundational, marked by ' + endNode(r).foundational_by + ')'
          ELSE ' (lease to work seq ' + toString(coalesce(r.lease_until_seq,
                 coalesce(r.set_work, r.set_seq) + $default_lease)) + ')' END]
         AS edges
ORDER BY via <> target, hops, root
LIMIT 1
