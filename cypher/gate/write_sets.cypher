// Sets decided in this transaction (ratified, halted or rejected), in ledger order;
// ratified sets are chained with NEXT to the previous ratified set of the boundary.
UNWIND $sets AS row
MATCH (b:Boundary {id: row.props.boundary_id})
MERGE (s:Set {id: row.id})
SET s += row.props
MERGE (s)-[:IN]->(b)
WITH s, row
OPTIONAL MATCH (prev:Set {id: row.prev_id})
FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(s))
