// An operator sets the czar's cadence of a boundary ($czar_every_commits; 0: only on demand),
// kept with who set it, when and why. The boundary's lock first, by a plain write (see
// cypher/gate/lock_boundary.cypher).
MATCH (b:Boundary {id: $boundary_id})
SET b.czar_cadence_set_at = datetime()
SET b.czar_every_commits = $czar_every_commits,
    b.czar_cadence_set_by = $operator_id,
    b.czar_cadence_reason = $reason
RETURN b.id AS id, b.czar_every_commits AS czar_every_commits
