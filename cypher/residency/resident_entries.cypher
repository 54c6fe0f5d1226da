// Every entry of the boundary that is resident now, or standing (the window's candidates), with
// what the czar decides on (set_writers: every writer of the set that created it; the czar
// leaves the work of any set it co-wrote alone). Index seeks on (boundary_id, resident) and (boundary_id, status).
// One row, the entries in one list (in set_seq, id order): a boundary's thousands of entries
// travel as one record, not a record each (the driver's cost per record was half the read's).
CALL {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, resident)
  WHERE e.boundary_id = $boundary_id AND e.resident = true RETURN e
  UNION
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, status)
  WHERE e.boundary_id = $boundary_id AND e.status IN $standing RETURN e
}
WITH e ORDER BY e.set_seq, e.id
RETURN collect({id: e.id, class: e.class, key: e.key, status: e.status, resident: e.resident,
                writer_id: e.writer_id,
                set_writers: [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(e) | w.id],
                set_seq: e.set_seq, expires_after_seq: e.expires_after_seq,
                superseded_by_default: coalesce(e.superseded_by_default, false),
                tokens: coalesce(e.tokens, 0)}) AS entries
