// kg-context: a boundary at a glance (the ledger in order, what its entries declare, the halts)
// Parameters: $boundary_id
MATCH (b:Boundary {id: $boundary_id})
CALL (b) {
  MATCH p = (b)<-[:IN]-(:Set)-[:NEXT]->(:Set)
  RETURN collect(p) AS ledger
}
CALL (b) {
  MATCH p = (:Set)-[:CONTAINS]->(e:Entry)-[:REQUIRES|DERIVED_FROM|SUPERSEDES]->(:Entry)
  WHERE e.boundary_id = b.id
  RETURN collect(p) AS declared
}
CALL (b) {
  MATCH p = (h:Halt)-[:ON]->(:Set) USING INDEX SEEK h:Halt(boundary_id, set_id)
  WHERE h.boundary_id = b.id AND h.set_id IS NOT NULL
  RETURN collect(p) AS halts
}
RETURN b, ledger, declared, halts
