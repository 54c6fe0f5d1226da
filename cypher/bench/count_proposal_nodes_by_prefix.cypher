// Benchmark only: how many ProposalNodes a synthetic population already has (a prefix seek).
MATCH (p:ProposalNode)
WHERE p.specialist_id STARTS WITH $prefix
RETURN count(p) AS n
