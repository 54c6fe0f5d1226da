// Benchmark only: ProposalNodes $start..$end-1 of a synthetic population under one specialist-id
// prefix ($specialists specialists, two of three selected, one second apart), no embeddings.
// Run in batches (50k per transaction); ids are deterministic so a rerun resumes at the count.
UNWIND range($start, $end - 1) AS i
CREATE (:ProposalNode {
  id: $prefix + 'p' + toString(i),
  specialist_id: $prefix + toString(i % $specialists),
  task_id: $prefix + 'task',
  wave_id: $prefix + 'w' + toString(i / $specialists),
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
