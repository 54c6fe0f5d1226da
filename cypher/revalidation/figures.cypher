// The revalidation queue's figures for a boundary (the items of revalidation/queue.cypher): how
// many were opened, how many resolved, how many are open, and the mean and longest time to
// resolution in seconds.
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL CALL (b) {
  MATCH (s:Set {boundary_id: b.id})-[t:TRANSITIONED]->(e:Entry)
  USING INDEX SEEK s:Set(boundary_id)
  WHERE t.to = 'at_risk'
  CALL (s, e) {
    OPTIONAL MATCH (r:Set)-[u:TRANSITIONED]->(e)
    WHERE u.from = 'at_risk' AND r.seq > s.seq
    RETURN r
    ORDER BY r.seq
    LIMIT 1
  }
  RETURN count(*) AS opened, count(r) AS resolved,
         avg(CASE WHEN r IS NULL THEN null
                  ELSE duration.inSeconds(datetime(s.closed_at), datetime(r.closed_at))
                       .milliseconds / 1000.0 END) AS mean_seconds,
         max(CASE WHEN r IS NULL THEN null
                  ELSE duration.inSeconds(datetime(s.closed_at), datetime(r.closed_at))
                       .milliseconds / 1000.0 END) AS max_seconds
}
RETURN coalesce(opened, 0) AS opened, coalesce(resolved, 0) AS resolved,
       mean_seconds, max_seconds
