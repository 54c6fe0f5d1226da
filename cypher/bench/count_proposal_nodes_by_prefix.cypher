// Benchmark only: how many ProposalNodes a synthetic population already has (a prefix seek on
// the id's uniqueness index: every id of a population starts with its prefix).
MATCH (p:ProposalNode)
WHERE p.id STARTS WITH $prefix
RETURN count(p) AS n
