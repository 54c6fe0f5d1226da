// Benchmark only (the scale benchmark): ProposalNodes $start..$end-1 spread over the run's
// boundaries ($boundaries) and $specialists specialists each, two of three selected, one second
// apart, no embeddings. Ids are deterministic, so the count tells where a run resumes.
UNWIND range($start, $end - 1) AS i
WITH i, $boundaries[i % size($boundaries)] AS boundary_id
CREATE (:ProposalNode {
  id: $prefix + 'p' + toString(i),
  boundary_id: boundary_id,
  specialist_id: $prefix + 's' + toString((i / size($boundaries)) % $specialists),
  task_id: $prefix + 'task',
  wave_id: $prefix + 'w' + toString(i / size($boundaries)),
  relevance: toFloat(i % 997) / 997.0,
  track_record: 0.5,
  confidence: 0.5,
  confidence_source: 'default',
  composite: toFloat(i % 1000) / 1000.0,
  selected: i % 3 <> 0,
  rank: 1 + i % 3,
  at: $base + duration({seconds: i}),
  digest: 'bench'
})
RETURN count(*) AS created
