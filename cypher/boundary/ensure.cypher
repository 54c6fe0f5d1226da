// Create a coherence boundary if it does not exist (idempotent); return it. A boundary created
// here gets the receipt of the constitution it starts under ($receipt: kind 'constitution',
// FOR the boundary, like the commit receipt of any later constitution change), in the same
// statement; a boundary that already exists gets nothing (neither does one created before
// these receipts existed). Two creators racing: the second's MERGE waits on the uniqueness
// constraint, then finds the boundary and its receipt, and writes nothing. The czar's cadence
// ($czar_every_commits: a run whenever the boundary's seq has advanced that much since the last
// run; 0: only on demand) is the boundary's, recorded here once.
OPTIONAL MATCH (existing:Boundary {id: $boundary_id})
WITH existing IS NULL AS new
MERGE (b:Boundary {id: $boundary_id})
  ON CREATE SET b.seq = 0, b.work_seq = 0, b.verse = $verse, b.constitution_version = $constitution_version,
                b.task_horizon = $task_horizon, b.created_at = datetime(),
                b.live_count = 0, b.requires_count = 0, b.committed_tokens = 0,
                b.resident_tokens = 0, b.proposal_serial = 0,
                b.czar_every_commits = $czar_every_commits, b.czar_seq = 0
WITH b, new AND NOT EXISTS { MATCH (:Receipt {id: $receipt.id}) } AS founding
FOREACH (_ IN CASE WHEN founding THEN [1] ELSE [] END |
  CREATE (r:Receipt:$(toUpper(left($receipt.kind, 1)) + substring($receipt.kind, 1) + 'Receipt'))
  SET r = $receipt
  CREATE (r)-[:FOR]->(b))
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, toString(b.created_at) AS created_at,
       coalesce(b.work_seq, b.seq) AS work_seq, b.czar_every_commits AS czar_every_commits
