// Analyst audit: every ProposalNode of one attention wave (winners and losers), with the
// specialist that proposed it and the task it was for, in rank order.
MATCH (p:ProposalNode {wave_id: $wave_id})-[:PROPOSED_BY]->(s:Specialist),
      (p)-[:PROPOSED_FOR]->(t:Task)
RETURN p {.*} AS p, s.id AS specialist, t.id AS task
ORDER BY p.rank
