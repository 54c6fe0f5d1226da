// Benchmark only (the scale and attention benchmarks): ProposalNodes $start..$end-1 spread over
// the run's boundaries ($boundaries, with their boundary tokens $tokens in the same order) and
// $specialists specialists each, two of three selected, one second apart, written with what
// attention/write_proposals.cypher writes for one (a Thought with its text, uncut: its bound but
// no length, SHA-256 or content digest of its own, as an uncut text is stored, and no writer id
// or thought source, which its specialist_id and its label say; what it came to in its wave, the
// boundary token, PROPOSED_BY its Specialist and PROPOSED_FOR the run's Task; no embedding, as
// the engine stores none). Ids are deterministic, so the count tells where a run resumes.
UNWIND range($start, $end - 1) AS i
WITH i, i % size($boundaries) AS b
WITH i, $boundaries[b] AS boundary_id, $tokens[b] AS token,
     $prefix + 's' + toString((i / size($boundaries)) % $specialists) AS specialist_id,
     'specialist output ' + toString(i) + ': use plan ' + toString(i % 97) AS text
MERGE (s:Specialist {id: specialist_id})
MERGE (t:Task {id: $prefix + 'task'})
CREATE (p:ProposalNode:Thought {
  id: $prefix + 'p' + toString(i),
  boundary_id: boundary_id,
  specialist_id: specialist_id,
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
  text: text,
  text_truncated: false,
  text_bound: 262144,
  thought_outcome: CASE WHEN i % 3 <> 0 THEN 'won' ELSE 'lost' END,
  thought_reason: CASE WHEN i % 3 <> 0 THEN 'selected' ELSE 'outranked' END,
  boundary_token: token
})
CREATE (p)-[:PROPOSED_BY]->(s)
CREATE (p)-[:PROPOSED_FOR]->(t)
RETURN count(*) AS created
