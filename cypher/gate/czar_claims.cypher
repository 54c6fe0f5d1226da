// What the graph shows, at work seq $work (the lease clock), about the entries a czar set
// claims pre-authorized cases for
// (read inside the gate transaction, never taken from the czar's evidence text):
// - reachable: a root of the boundary (a standing entry of a root class, inside its own lease,
//   or superseded_by_default) reaches it through REQUIRES edges that hold (residency/reachable's rule:
//   hard, into a foundational entry, or leased and not a reconstructible edge into a rebuildable
//   entry), every entry on the way standing (as cypher/residency/reachable.cypher); or it is a
//   standing interface summarizing a non-standing entry that such a reached entry holds through
//   a soft edge naming needs;
// - superseded_unexecuted: a standing entry of its key declares it supersedes it, unexecuted;
// - default_superseded: it is superseded_by_default and a newer standing entry of its key exists.
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
UNWIND $entry_ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
CALL (e, rebuildable) {
  MATCH p = (e)<-[:REQUIRES*0..]-(root:Entry)
  WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
            OR endNode(r).foundational = true
            OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= $work
                AND NOT (r.policy = 'reconstructible' AND endNode(r).id IN rebuildable)))
    AND all(n IN nodes(p) WHERE n.status IN $standing)
  WITH DISTINCT root
  WHERE root.boundary_id = $boundary_id
    AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > $work
         OR root.superseded_by_default = true)
  RETURN count(root) > 0 AS reached
}
CALL (e, rebuildable) {
  MATCH (e)-[:SUMMARIZES]->(held:Entry)<-[h:REQUIRES]-(d:Entry)
  WHERE e.status IN $standing AND NOT held.status IN $standing AND h.policy <> 'hard'
    AND size(coalesce(h.needs, [])) > 0
    AND coalesce(h.lease_until_seq, coalesce(h.set_work, h.set_seq) + $default_lease) >= $work
  MATCH p = (d)<-[:REQUIRES*0..]-(root:Entry)
  WHERE all(r IN relationships(p) WHERE r.policy = 'hard'
            OR endNode(r).foundational = true
            OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= $work
                AND NOT (r.policy = 'reconstructible' AND endNode(r).id IN rebuildable)))
    AND all(n IN nodes(p) WHERE n.status IN $standing)
  WITH DISTINCT root
  WHERE root.boundary_id = $boundary_id
    AND (root.class IN $root_classes OR coalesce(root.expires_after_seq, -1) > $work
         OR root.superseded_by_default = true)
  RETURN count(root) > 0 AS held
}
RETURN e.id AS id, reached OR held AS reachable,
       EXISTS { MATCH (n:Entry)-[s:SUPERSEDES]->(e)
                WHERE s.executed = false AND n.status IN $standing AND n.key = e.key }
         AS superseded_unexecuted,
       (coalesce(e.superseded_by_default, false) AND EXISTS {
          MATCH (n:Entry) WHERE n.boundary_id = $boundary_id AND n.key = e.key
            AND n.status IN $standing AND n.set_seq > e.set_seq })
         AS default_superseded
