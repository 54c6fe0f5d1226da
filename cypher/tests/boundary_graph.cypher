// Tests only: what the gate wrote in a boundary, to compare two boundaries written the same way:
// every node of the boundary within two relationships of one of its sets (the sets, their
// entries, receipts, halts, proposals, writers, targets, index lines, lease renewals) with its
// labels, properties and outgoing relationships (type, properties, and the id or key of the
// node it reaches), and the boundary node itself.
MATCH (:Boundary {id: $boundary_id})<-[:IN]-(s:Set)
MATCH (s)-[*0..2]-(n)
WITH DISTINCT n
WHERE n.boundary_id = $boundary_id OR (n:Boundary AND n.id = $boundary_id)
OPTIONAL MATCH (n)-[r]->(m)
RETURN labels(n) AS labels, properties(n) AS props,
       collect(CASE WHEN r IS NOT NULL
                    THEN {type: type(r), props: properties(r), to: coalesce(m.id, m.key),
                          to_labels: labels(m)}
               END) AS out
