// The recall copies among $ids (entries of one boundary a batch's sets depend on) and the source
// each was copied from, as the graph shows them (never from what the copy's attributes say): a
// scratch entry that a recall set created, or that the [on_dependency] rule made (its id the
// source's plus $marker, a form no writer may propose), DERIVED_FROM an entry of the same boundary
// with the same key and body. With the source: its state (the shape of the gate's snapshot
// entries) and whether it left the window from live (its last status change was
// live/revalidated -> retired and no entry declares it supersedes it).
UNWIND $ids AS copy_id
WITH DISTINCT copy_id
MATCH (c:Entry {boundary_id: $boundary_id, id: copy_id})
  USING INDEX SEEK c:Entry(boundary_id, id)
WHERE c.class = 'scratch'
MATCH (c)-[:DERIVED_FROM]->(s:Entry {boundary_id: $boundary_id})
WHERE s.id <> c.id AND s.key = c.key AND coalesce(s.body, '') = coalesce(c.body, '')
  AND (EXISTS { MATCH (recall)-[:CONTAINS]->(c)
                WHERE recall.boundary_id = $boundary_id AND recall.kind = 'recall' }
       OR c.id STARTS WITH s.id + $marker)
OPTIONAL MATCH (changer)-[t:TRANSITIONED]->(s)
WHERE changer.boundary_id = $boundary_id
WITH c, s, t ORDER BY t.seq DESC
WITH c, s, collect(t)[0] AS last
RETURN c.id AS copy_id,
       {id: s.id, boundary_id: s.boundary_id, key: s.key, status: s.status, class: s.class,
        writer_id: s.writer_id, resident: s.resident, set_id: s.set_id,
        set_writers: [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(s) | w.id],
        tokens: coalesce(s.tokens, 0),
        requires_out: COUNT { (s)-[:REQUIRES]->() }} AS source,
       s.status = 'retired' AND last IS NOT NULL AND last.to = 'retired'
         AND last.from IN $live AND NOT EXISTS { (:Entry)-[:SUPERSEDES]->(s) } AS from_live
ORDER BY copy_id, source.id
