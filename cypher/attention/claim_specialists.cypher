// Bind a wave's specialists to the writer whose wave names them, in one boundary: a specialist
// no writer has named in $boundary_id yet is bound to $writer_id there
// ((:Specialist)-[:BOUND_IN {writer_id, at}]->(:Boundary)); one already bound keeps its writer.
// Each specialist node is write-locked first (claims), so two first waves racing for one
// specialist bind it once. Returns each specialist's writer in the boundary; the caller refuses
// the wave (and rolls this back) when one is not $writer_id.
MATCH (b:Boundary {id: $boundary_id})
UNWIND $specialist_ids AS specialist_id
MERGE (s:Specialist {id: specialist_id})
SET s.claims = coalesce(s.claims, 0) + 1
WITH b, s
OPTIONAL MATCH (s)-[o:BOUND_IN]->(b)
WITH b, s, head(collect(o.writer_id)) AS owner
FOREACH (_ IN CASE WHEN owner IS NULL THEN [1] ELSE [] END |
  CREATE (s)-[:BOUND_IN {writer_id: $writer_id, at: $at}]->(b))
RETURN s.id AS specialist_id, coalesce(owner, $writer_id) AS writer_id
