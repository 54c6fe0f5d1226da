// What the graph shows, at work seq $work (the lease clock), about the entries a czar set
// claims pre-authorized cases for
// (read inside the gate transaction, never taken from the czar's evidence text):
// - reachable: a root of the boundary reaches it through REQUIRES edges that hold, every entry
//   on the way standing: it is one of $reached (its id; the gate reads cypher/residency/
//   reachable.cypher in the same transaction and walks its held edges, gate/io/held_graph.py: one
//   rule, one visit per entry); or it is a standing interface summarizing a non-standing entry
//   that a reached entry (of $reached, or of another boundary: $reached_foreign, [boundary_id,
//   id] pairs) holds through a soft edge naming needs whose lease has not run out;
// - superseded_unexecuted: a standing entry of its key declares it supersedes it, unexecuted;
// - default_superseded: it is superseded_by_default and a newer standing entry of its key exists.
UNWIND $entry_ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
RETURN e.id AS id,
       e.id IN $reached
         OR EXISTS {
              MATCH (e)-[:SUMMARIZES]->(held:Entry)<-[h:REQUIRES]-(d:Entry)
              WHERE e.status IN $standing AND NOT held.status IN $standing
                AND h.policy <> 'hard' AND size(coalesce(h.needs, [])) > 0
                AND coalesce(h.lease_until_seq, coalesce(h.set_work, h.set_seq) + $default_lease)
                    >= $work
                AND CASE WHEN d.boundary_id = $boundary_id THEN d.id IN $reached
                         ELSE [d.boundary_id, d.id] IN $reached_foreign END }
         AS reachable,
       EXISTS { MATCH (n:Entry)-[s:SUPERSEDES]->(e)
                WHERE s.executed = false AND n.status IN $standing AND n.key = e.key }
         AS superseded_unexecuted,
       (coalesce(e.superseded_by_default, false) AND EXISTS {
          MATCH (n:Entry) WHERE n.boundary_id = $boundary_id AND n.key = e.key
            AND n.status IN $standing AND n.set_seq > e.set_seq })
         AS default_superseded
