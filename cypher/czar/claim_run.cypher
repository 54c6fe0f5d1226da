// Claim one czar run of a boundary: at most one runs at a time, across processes. Like every
// write transaction of a boundary it takes the boundary's lock first, by a plain write (see
// cypher/gate/lock_boundary.cypher). The claim is granted when no other run holds it (its
// lease, czar_run_until, has run out) and, with $due_only (the cadence), only when the cadence
// the boundary records is due: czar_every_commits > 0 and the seq has advanced by at least that
// much since the last claimed run (czar_seq). A granted claim records $run_id, the lease
// ($lease_s seconds) and the seq it starts from (the next cadence counts from it); no row: not
// granted.
MATCH (b:Boundary {id: $boundary_id})
SET b.czar_claimed_at = datetime()
WITH b, coalesce(b.czar_every_commits, $default_czar_every) AS every
WHERE (NOT $due_only OR (every > 0 AND b.seq >= coalesce(b.czar_seq, 0) + every))
  AND (b.czar_run_until IS NULL OR b.czar_run_until <= datetime())
SET b.czar_run_id = $run_id,
    b.czar_run_until = datetime() + duration({milliseconds: toInteger($lease_s * 1000)}),
    b.czar_seq = b.seq
RETURN b.seq AS seq, every AS czar_every_commits
