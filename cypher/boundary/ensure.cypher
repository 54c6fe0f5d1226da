// Create a coherence boundary if it does not exist (idempotent); return it.
MERGE (b:Boundary {id: $boundary_id})
  ON CREATE SET b.seq = 0, b.verse = $verse, b.constitution_version = $constitution_version,
                b.task_horizon = $task_horizon, b.created_at = datetime(),
                b.live_count = 0, b.requires_count = 0, b.committed_tokens = 0,
                b.resident_tokens = 0, b.proposal_serial = 0
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, toString(b.created_at) AS created_at
