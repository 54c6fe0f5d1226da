// Benchmark only (the scale benchmark's ground truth): every embedded entry of one boundary with
// its embedding, for a brute-force cosine in Python (a seek on the boundary id).
MATCH (e:Entry {boundary_id: $boundary_id})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding
