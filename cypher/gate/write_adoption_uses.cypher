// One counted use of an adoption receipt by a ratified set: (:Set)-[:USED_ADOPTION {seq}]->
// (:Receipt). Receipts are never changed; their uses are counted from these edges.
UNWIND $uses AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
MATCH (r:Receipt {id: row.receipt_id})
CREATE (s)-[:USED_ADOPTION {seq: row.seq}]->(r)
