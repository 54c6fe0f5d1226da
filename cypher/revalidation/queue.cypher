// The revalidation queue of a boundary: one item per move of an entry to at_risk (an invalidation
// walk's essential descendant, case FAILED_ANCESTOR; an ontology or constitution change's
// dependents, case ONTOLOGY), opened by the ratified set that moved it, resolved by the first
// later set that moved it out of at_risk (to revalidated, invalidated or retired), with the
// seconds between the two sets' closing. $status: 'open', 'resolved', or null for both; newest
// first, at most $limit.
MATCH (s:Set {boundary_id: $boundary_id})-[t:TRANSITIONED]->(e:Entry)
USING INDEX SEEK s:Set(boundary_id)
WHERE t.to = 'at_risk'
CALL (s, e) {
  OPTIONAL MATCH (r:Set)-[u:TRANSITIONED]->(e)
  WHERE u.from = 'at_risk' AND r.seq > s.seq
  RETURN r, u
  ORDER BY r.seq
  LIMIT 1
}
WITH s, t, e, r, u
WHERE $status IS NULL OR ($status = 'open') = (r IS NULL)
RETURN e.id AS entry_id, e.class AS class, e.key AS key, e.status AS status,
       s.id AS opened_by, s.seq AS opened_seq, s.closed_at AS opened_at, t.case AS case,
       coalesce(t.failed_ancestors, []) AS failed_ancestors, t.reason AS reason,
       r.id AS resolved_by, r.seq AS resolved_seq, r.closed_at AS resolved_at,
       u.to AS resolution,
       CASE WHEN r IS NULL THEN null
            ELSE duration.inSeconds(datetime(s.closed_at), datetime(r.closed_at)).milliseconds
                 / 1000.0 END AS resolution_seconds
ORDER BY opened_seq DESC, entry_id
LIMIT $limit
