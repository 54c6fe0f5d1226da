// Benchmark only: whether a boundary's czar still has work on its cadence: a run in progress
// (its claim's lease not run out) or a cadence due (the seq advanced czar_every_commits since the
// last claimed run). The commit benchmark waits on it for the czar it runs beside the writer.
MATCH (b:Boundary {id: $boundary_id})
RETURN (b.czar_run_until IS NOT NULL AND b.czar_run_until > datetime())
       OR (b.czar_every_commits > 0 AND b.seq >= coalesce(b.czar_seq, 0) + b.czar_every_commits)
       AS pending
