// kg-context: a boundary's ledger as a graph (sets in order, what each contains)
// Parameters: $boundary_id
MATCH p = (:Boundary {id: $boundary_id})<-[:IN]-(s:Set)-[:CONTAINS]->(:Entry)
OPTIONAL MATCH n = (s)-[:NEXT]->(:Set)
RETURN p, n
LIMIT 300
