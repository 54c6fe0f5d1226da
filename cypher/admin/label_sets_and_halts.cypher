// Give sets and halts written before status labels existed their status label (:Ratified,
// :Halted, :Rejected; :Open, :Resolved), for Neo4j Browser's style. Idempotent: only nodes
// without one are touched; statuses are not changed.
MATCH (n)
WHERE (n:Set OR n:Halt)
  AND NOT (n:Ratified OR n:Halted OR n:Rejected OR n:Open OR n:Resolved)
  AND n.status IS NOT NULL
SET n:$(toUpper(left(n.status, 1)) + substring(n.status, 1))
RETURN count(n) AS labelled
