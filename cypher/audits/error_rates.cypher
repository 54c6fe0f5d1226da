// Question: What are the error rates of a boundary made of? One row: how
//   many retirements (declared transitions into retired) and executed supersessions there were;
//   every entry that left standing (a declared transition to superseded, retired, invalidated or
//   explored, an executed supersession, or recorded explored) with the first later set that
//   brought it back: a recall set copying it, or a later entry declaring REQUIRES or an essential
//   DERIVED_FROM on it (interfaces excepted; through the gate only an operator's approval of a
//   NON_STANDING_DEPENDENCY halt lets one commit); every invalidated entry with the set that made
//   it and the first set that questioned it (a challenge, an at-risk walk or the invalidation;
//   invalidated is final, so these are the entries whose status is invalidated);
//   and every entry ever at risk with how its latest at-risk spell ended (revalidated, abandoned:
//   invalidated or retired, or still open). Read from edges and statuses, never from a
//   justification's text. kg_context.record.observability.rates turns the row into rates.
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (b:Boundary {id: $boundary_id})
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id)
  WHERE e.boundary_id = b.id
  MATCH (:Set)-[t:TRANSITIONED]->(e)
  WHERE t.to = 'retired' AND t.from <> 'retired'
  RETURN count(t) AS retirements
}
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id)
  WHERE e.boundary_id = b.id
  MATCH (:Entry)-[r:SUPERSEDES]->(e)
  WHERE r.executed
  RETURN count(r) AS supersessions
}
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id)
  WHERE e.boundary_id = b.id
  WITH e,
       [(:Set)-[t:TRANSITIONED]->(e)
         WHERE t.to IN ['superseded', 'retired', 'invalidated', 'explored'] AND t.from <> t.to
         | t.seq] +
       [(:Entry)-[r:SUPERSEDES]->(e) WHERE r.executed | r.seq] +
       CASE WHEN e.initial_status = 'explored' THEN [e.set_seq] ELSE [] END AS outs
  WHERE size(outs) > 0
  WITH e, reduce(m = outs[0], x IN outs | CASE WHEN x < m THEN x ELSE m END) AS left_at
  WITH e, left_at,
       [(e)<-[:DERIVED_FROM]-(:Entry)<-[:CONTAINS]-(rs:Set)
         WHERE rs.kind = 'recall' AND rs.seq > left_at | rs.seq] AS recalls,
       [(e)<-[r:REQUIRES|DERIVED_FROM]-(c:Entry)
         WHERE c.set_seq > left_at AND c.class <> 'interface'
           AND (type(r) = 'REQUIRES' OR r.essential = true) | c.set_seq] AS dependencies
  ORDER BY e.id
  RETURN collect({entry_id: e.id, left_at: left_at,
                  recall: reduce(m = null, x IN recalls | CASE WHEN m IS NULL OR x < m THEN x ELSE m END),
                  dependency: reduce(m = null, x IN dependencies |
                                     CASE WHEN m IS NULL OR x < m THEN x ELSE m END)}) AS left_standing
}
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, status)
  WHERE e.boundary_id = b.id AND e.status = 'invalidated'
  MATCH (s:Set)-[t:TRANSITIONED]->(e)
  WHERE t.to IN ['challenged', 'at_risk', 'invalidated'] AND t.from <> t.to
  WITH e, s, t ORDER BY t.seq
  WITH e, head(collect({seq: t.seq, set_id: s.id})) AS first
  ORDER BY e.id
  RETURN collect({entry_id: e.id, mistake_seq: e.set_seq, mistake_set: e.set_id,
                  detected_seq: first.seq, detected_by_set: first.set_id}) AS invalidated
}
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id)
  WHERE e.boundary_id = b.id
  MATCH (:Set)-[t:TRANSITIONED]->(e)
  WHERE t.to = 'at_risk' AND t.from <> 'at_risk'
  WITH e, max(t.seq) AS since
  WITH e, since,
       [(:Set)-[n:TRANSITIONED]->(e) WHERE n.seq > since AND n.to <> 'at_risk' | n] AS after
  WITH e, since, reduce(f = null, n IN after | CASE WHEN f IS NULL OR n.seq < f.seq THEN n ELSE f END)
       AS ended
  ORDER BY e.id
  RETURN collect({entry_id: e.id, since: since, ended_as: ended.to, ended_at: ended.seq}) AS at_risk
}
RETURN b.id AS boundary_id, retirements, supersessions, left_standing, invalidated, at_risk
