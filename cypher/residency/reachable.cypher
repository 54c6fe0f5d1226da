// Residency by reachability, the graph half: every standing entry of the boundary that is a root
// or holds something, with the REQUIRES edges out of it that hold at work seq $work; the walk
// from the roots over these edges runs in Python (kg_context/residency/reachability.py), one
// visit per entry, so its cost is linear in the live state (a variable-length match from every
// root re-walked what the roots share: quadratic on deep dependency chains).
// An edge holds when both its ends are standing and it is hard; or its target is foundational
// (an operator's mark); or its lease is unexpired (lease_until_seq, or set_work/set_seq +
// $default_lease when the edge declared none, at least $work; leases count the boundary's work,
// never the czar's compaction sets) and it is not a reconstructible edge whose target can be
// rebuilt from the record. Rebuildable: a standing interface summarizes it, or recall rebuilds
// it whole (its body is not empty and its REQUIRES closure, itself included, has at most
// $recall_max_entries entries, none further than $recall_max_depth hops: what residency/recall
// admits without a cut; the closure is counted no further than $recall_max_entries + 1 entries,
// so a reconstructible edge into a large closure costs a bounded read). Roots: standing entries
// of a root class, standing entries still inside their own lease (expires_after_seq > $work)
// when their class is one the constitution's [roots] leased names (lease_root, set at commit;
// entries written before it carried none count as leased roots), standing entries of another
// class inside their grace (fresh_until_seq > $work: the smaller of their own lease and the
// constitution's [roots] fresh_sets work sets after their commit, set at commit, never renewed),
// and standing superseded_by_default entries (they hold until a newer entry of their key
// stands; then the czar retires them).
// Successors ($successors, the constitution's [roots] successors): a hard edge, or a soft one
// inside its lease, whose target was replaced (status in $replaced: superseded, invalidated)
// holds the standing entries that superseded it, over a chain of SUPERSEDES in the target's
// boundary, as it would hold its target (a reconstructible edge holds no successor: the record
// rebuilds it). Only executed SUPERSEDES edges count: an entry whose declared supersession the
// gate recorded but did not execute (its target was already replaced, say by another entry of
// the same set) replaced nothing and is held by nothing through it.
// The scan starts from the (boundary_id, status) index, so retired history is never read.
// $own: read the boundary's own entries; $foreign: entries of other boundaries (each
// {boundary_id, id}) that a held edge reached, whose edges the walk follows in turn (never
// roots). One row, lists only (a record per entry costs more than the statement):
// - roots: the roots' ids;
// - sources, held: parallel lists, an entry of the boundary and the ids of the entries of the
//   boundary its held edges reach;
// - others: the rest, one map per entry that holds an entry of another boundary, or carries
//   interfaces, or is itself of another boundary: its boundary_id, id, held (ids in
//   $boundary_id), foreign ([boundary_id, id] pairs) and interfaces (the standing interfaces
//   that summarize a retired entry it holds through a soft/reconstructible edge naming
//   needs: resident while it is reached; a superseded or failed entry was replaced, and an
//   interface of it would be stale).
CALL {
  MATCH (e:Entry)
  USING INDEX SEEK e:Entry(boundary_id, status)
  WHERE e.boundary_id = $boundary_id AND e.status IN $standing AND $own
  RETURN e
  UNION ALL
  UNWIND $foreign AS ref
  MATCH (e:Entry {boundary_id: ref.boundary_id, id: ref.id})
    USING INDEX SEEK e:Entry(boundary_id, id)
  WHERE e.status IN $standing
  RETURN e
}
WITH e,
     e.boundary_id = $boundary_id
       AND (e.class IN $root_classes
            OR (coalesce(e.expires_after_seq, -1) > $work AND coalesce(e.lease_root, true))
            OR coalesce(e.fresh_until_seq, -1) > $work
            OR e.superseded_by_default = true) AS root,
     [(e)-[r:REQUIRES]->(t:Entry)
      WHERE t.status IN $standing
        AND (r.policy = 'hard' OR t.foundational = true
             OR (coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) >= $work
                 AND NOT (r.policy = 'reconstructible'
                          AND (EXISTS { MATCH (t)<-[:SUMMARIZES]-(i:Entry)
                                        WHERE i.status IN $standing }
                               OR (size(coalesce(t.body, '')) > 0
                                   AND CASE WHEN COUNT { MATCH (t)-[:REQUIRES*0..]->(x:Entry)
                                                         RETURN DISTINCT x LIMIT $recall_max_entries + 1 }
                                                 <= $recall_max_entries
                                       THEN NOT EXISTS {
                                              MATCH (t)-[:REQUIRES*0..]->(x:Entry)
                                              WHERE NOT EXISTS {
                                                MATCH q = (t)-[:REQUIRES*0..]->(x)
                                                WHERE length(q) <= $recall_max_depth } }
                                       ELSE false END)))))
      | t]
     + CASE WHEN $successors
            THEN [q = (e)-[r:REQUIRES]->(t:Entry)<-[:SUPERSEDES*1..]-(s:Entry)
                  WHERE t.status IN $replaced AND s.status IN $standing
                    AND all(x IN relationships(q)[1..] WHERE coalesce(x.executed, true))
                    AND s.boundary_id = t.boundary_id
                    AND (r.policy = 'hard'
                         OR (r.policy = 'soft'
                             AND coalesce(r.lease_until_seq,
                                          coalesce(r.set_work, r.set_seq) + $default_lease)
                                 >= $work))
                  | s]
            ELSE [] END AS targets,
     [(e)-[r:REQUIRES]->(held:Entry)<-[:SUMMARIZES]-(i:Entry)
      WHERE r.policy <> 'hard' AND size(coalesce(r.needs, [])) > 0
        AND held.status = 'retired' AND i.status IN $standing | i.id] AS interfaces
WITH e, root, [t IN targets WHERE t.boundary_id = $boundary_id | t.id] AS held,
     [t IN targets WHERE t.boundary_id <> $boundary_id | [t.boundary_id, t.id]] AS foreign,
     interfaces, e.boundary_id = $boundary_id AS own
RETURN collect(CASE WHEN root THEN e.id END) AS roots,
       collect(CASE WHEN own AND size(held) > 0 THEN e.id END) AS sources,
       collect(CASE WHEN own AND size(held) > 0 THEN held END) AS held,
       collect(CASE WHEN NOT own OR size(foreign) > 0 OR size(interfaces) > 0
                    THEN {boundary_id: e.boundary_id, id: e.id, held: held, foreign: foreign,
                          interfaces: interfaces} END) AS others
