// Question: What did one attention wave hold: every ProposalNode (winners and losers), its
//   specialist and its task, in rank order?
// Parameters:
//   $wave_id  the wave (a string, as BroadcastResult.wave_id)
// Expect: rows
MATCH (p:ProposalNode {wave_id: $wave_id})-[:PROPOSED_BY]->(s:Specialist),
      (p)-[:PROPOSED_FOR]->(t:Task)
RETURN p {.*} AS p, s.id AS specialist, t.id AS task
ORDER BY p.rank
