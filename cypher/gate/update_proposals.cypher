// What became of each proposal: committed, halted or rejected, and in which set.
UNWIND $proposals AS row
MATCH (p:Proposal {id: row.id}), (s:Set {id: row.set_id})
SET p.status = row.status, p.set_id = row.set_id
MERGE (p)-[:IN_SET]->(s)
