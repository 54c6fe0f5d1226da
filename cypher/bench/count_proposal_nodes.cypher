// Benchmark only: every ProposalNode in the database (from the count store).
MATCH (p:ProposalNode)
RETURN count(p) AS n
