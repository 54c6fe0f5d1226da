// Declared status and residency changes of existing entries. The record keeps the entry (never
// deleted) and a TRANSITIONED edge from the ratifying set with the reason and the exact edges
// or facts that justified the change.
UNWIND $transitions AS row
MATCH (s:Set {id: row.set_id}), (e:Entry {id: row.entry_id})
SET e.status = row.to, e.resident = row.resident, e.status_seq = row.seq
CREATE (s)-[:TRANSITIONED {from: row.from, to: row.to, resident: row.resident,
                           was_resident: row.was_resident, reason: row.reason,
                           justification: row.justification, seq: row.seq}]->(e)
