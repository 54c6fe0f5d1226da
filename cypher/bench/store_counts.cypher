// Benchmark only: how many nodes and relationships the store holds (both from the count store).
CALL () {
  MATCH (n)
  RETURN count(n) AS nodes
}
CALL () {
  MATCH ()-[r]->()
  RETURN count(r) AS relationships
}
RETURN nodes, relationships
