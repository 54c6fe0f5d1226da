// One boundary by id (work_seq: its committed sets but the czar's compaction sets, the lease
// clock; a boundary from before it counted reads its seq; czar_every_commits: the czar's cadence
// it records, null for a boundary recorded before it kept one).
MATCH (b:Boundary {id: $boundary_id})
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, toString(b.created_at) AS created_at,
       coalesce(b.work_seq, b.seq) AS work_seq, b.czar_every_commits AS czar_every_commits
