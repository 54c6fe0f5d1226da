// How an entry out of the window can be rebuilt from the record (for `why`): the standing
// entries that hold it through a reconstructible REQUIRES edge, the standing interfaces that
// summarize it, and whether recall rebuilds it whole (body not empty; REQUIRES closure of at
// most $recall_max_entries entries, none further than $recall_max_depth hops).
MATCH (t:Entry {boundary_id: $boundary_id, id: $entry_id})
  USING INDEX SEEK t:Entry(boundary_id, id)
RETURN [(d:Entry)-[:REQUIRES {policy: 'reconstructible'}]->(t) WHERE d.status IN $standing
        | d.id] AS dependents,
       [(t)<-[:SUMMARIZES]-(i:Entry) WHERE i.status IN $standing | i.id] AS interfaces,
       size(coalesce(t.body, '')) > 0
         AND CASE WHEN COUNT { MATCH (t)-[:REQUIRES*0..]->(x:Entry) RETURN DISTINCT x LIMIT $recall_max_entries + 1 }
                       <= $recall_max_entries
             THEN NOT EXISTS {
                    MATCH (t)-[:REQUIRES*0..]->(x:Entry)
                    WHERE NOT EXISTS { MATCH q = (t)-[:REQUIRES*0..]->(x)
                                       WHERE length(q) <= $recall_max_depth } }
             ELSE false END AS recallable
