// Question: What is a boundary's ledger: every set in order, its status, writer, previous set and
//   receipts?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (s:Set)-[:IN]->(b:Boundary {id: $boundary_id})
OPTIONAL MATCH (r:Receipt)-[:FOR]->(s)
WITH s, r ORDER BY r.id
WITH s, collect(r {.id, .kind, .constitution_version, .state_revision}) AS receipts
OPTIONAL MATCH (prev:Set)-[:NEXT]->(s)
RETURN s.id AS set_id, s.seq AS seq, s.status AS status, s.kind AS kind,
       s.writer_id AS writer_id, s.summary AS summary, prev.id AS previous_set_id, receipts
ORDER BY s.seq, s.closed_at
