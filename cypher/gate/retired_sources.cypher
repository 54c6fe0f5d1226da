// The retired entries of one boundary among $ids (what a batch's sets depend on), with what a
// rule-made recall copy of each copies (class, key, body, set seq), and whether it left the
// window from live: its last status change was live/revalidated -> retired and no entry declares
// it supersedes it (a superseded or failed entry retired afterwards is not rebuildable state).
UNWIND $ids AS entry_id
WITH DISTINCT entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
WHERE e.status = 'retired'
OPTIONAL MATCH (changer)-[t:TRANSITIONED]->(e)
WHERE changer.boundary_id = $boundary_id
WITH e, t ORDER BY t.seq DESC
WITH e, collect(t)[0] AS last
RETURN e.id AS id, e.class AS class, e.key AS key, coalesce(e.body, '') AS body,
       coalesce(e.set_seq, 0) AS set_seq,
       last IS NOT NULL AND last.to = 'retired' AND last.from IN $live
         AND NOT EXISTS { (:Entry)-[:SUPERSEDES]->(e) } AS from_live
ORDER BY id
