// Question: Did any text a writer supplied ever run as Cypher? (an injection test's marker nodes;
//   the one row says how many exist: 0)
// Parameters: none
// Expect: rows
MATCH (n:Pwned)
RETURN count(n) AS pwned
