// Benchmark only (the scale benchmark's ground truth): the embedded entries of one boundary with
// their embeddings, one page at a time in id order ($skip, $limit), for a brute-force cosine in
// Python (a seek on the boundary id; paged so a 50,000-entry boundary never sits in memory as
// Python lists all at once).
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding
ORDER BY id
SKIP $skip
LIMIT $limit
