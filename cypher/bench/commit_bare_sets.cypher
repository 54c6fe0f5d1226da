// Benchmark baseline (not product): the gate's sets and entries written by a bare UNWIND insert,
// with class labels, CONTAINS and the NEXT chain; no checks, receipts or proposal records.
UNWIND $sets AS s
MATCH (b:Boundary {id: s.boundary_id})
CREATE (st:Set {id: s.id, boundary_id: s.boundary_id, seq: s.seq, status: 'ratified'})
CREATE (st)-[:IN]->(b)
WITH st, s
OPTIONAL MATCH (prev:Set {boundary_id: s.boundary_id, id: s.prev_id})
  USING INDEX SEEK prev:Set(boundary_id, id)
FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | CREATE (prev)-[:NEXT]->(st))
WITH st, s
UNWIND s.entries AS e
CREATE (n:Entry:$(e.label))
SET n = e.props
CREATE (st)-[:CONTAINS]->(n)
