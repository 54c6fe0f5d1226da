// The boundaries whose czar cadence is due (czar_every_commits > 0 and the seq advanced that much
// since the last claimed run, czar_seq; a boundary recorded before it kept a cadence: the
// default, $default_czar_every) and whose czar run no one holds: what `kg-context czar watch`
// runs, beside writers whose engines may never signal it. Only $boundary_ids (null: every
// boundary); at most $limit, longest due first.
MATCH (b:Boundary)
WHERE $boundary_ids IS NULL OR b.id IN $boundary_ids
WITH b, coalesce(b.czar_every_commits, $default_czar_every) AS every
WHERE every > 0 AND b.seq >= coalesce(b.czar_seq, 0) + every
  AND (b.czar_run_until IS NULL OR b.czar_run_until <= datetime())
RETURN b.id AS id, b.seq AS seq, every AS czar_every_commits
ORDER BY b.seq - coalesce(b.czar_seq, 0) DESC, b.id
LIMIT $limit
