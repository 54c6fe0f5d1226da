// Every entry of the boundary that is resident now, or standing (the window's candidates), with
// what the czar decides on (set_writers: every writer of the set that created it; the czar
// leaves the work of any set it co-wrote alone). Index seeks on (boundary_id, resident) and (boundary_id, status).
CALL {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, resident)
  WHERE e.boundary_id = $boundary_id AND e.resident = true RETURN e
  UNION
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, status)
  WHERE e.boundary_id = $boundary_id AND e.status IN $standing RETURN e
}
RETURN e.id AS id, e.class AS class, e.key AS key, e.status AS status, e.resident AS resident,
       e.writer_id AS writer_id, [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(e) | w.id] AS set_writers, e.set_seq AS set_seq, e.expires_after_seq AS expires_after_seq,
       coalesce(e.superseded_by_default, false) AS superseded_by_default,
       coalesce(e.tokens, 0) AS tokens
ORDER BY e.set_seq, e.id
