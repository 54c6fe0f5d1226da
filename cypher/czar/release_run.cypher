// End the czar run $run_id holds on a boundary (its lease runs out now); a run that no longer
// holds the claim (its lease ran out and another took it) releases nothing. The boundary's lock
// first, by a plain write (see cypher/gate/lock_boundary.cypher).
MATCH (b:Boundary {id: $boundary_id})
SET b.czar_claimed_at = datetime()
WITH b
WHERE b.czar_run_id = $run_id
SET b.czar_run_until = datetime()
RETURN b.id AS id
