// Question: How much does a boundary's record hold (it only ever grows)? Receipts are counted
//   by what they are for: a set of the boundary, or the boundary itself (adoptions, its
//   founding constitution).
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (b:Boundary {id: $boundary_id})
RETURN b.seq AS seq,
       COUNT { MATCH (e:Entry) WHERE e.boundary_id = $boundary_id } AS entries,
       COUNT { MATCH (s:Set) WHERE s.boundary_id = $boundary_id } AS sets,
       COUNT { MATCH (r:Receipt)-[:FOR]->(s:Set) WHERE s.boundary_id = $boundary_id }
         + COUNT { MATCH (r:Receipt)-[:FOR]->(b) } AS receipts,
       COUNT { MATCH (h:Halt) WHERE h.boundary_id = $boundary_id AND h.set_id IS NOT NULL } AS halts,
       COUNT { MATCH (p:Proposal) WHERE p.boundary_id = $boundary_id AND p.status IS NOT NULL } AS proposals,
       COUNT { MATCH (e:Entry)-[r]->() WHERE e.boundary_id = $boundary_id } AS entry_edges
