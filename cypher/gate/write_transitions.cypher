// Declared status and residency changes of existing entries, with their status and residency
// labels kept in step. The record keeps the entry (never deleted) and a TRANSITIONED edge from
// the ratifying set with the reason, the case it cited, the failed ancestors it answers to, and
// the exact edges or facts that justified the change.
UNWIND $transitions AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id}),
      (e:Entry {boundary_id: $boundary_id, id: row.entry_id})
SET e.status = row.to, e.resident = row.resident, e.status_seq = row.seq
REMOVE e:$(row.from_label)
SET e:$(row.to_label)
FOREACH (_ IN CASE WHEN row.resident THEN [1] ELSE [] END | SET e:Resident)
FOREACH (_ IN CASE WHEN row.resident THEN [] ELSE [1] END | REMOVE e:Resident)
CREATE (s)-[:TRANSITIONED {from: row.from, to: row.to, resident: row.resident,
                           was_resident: row.was_resident, reason: row.reason, case: row.case,
                           failed_ancestors: row.failed_ancestors,
                           justification: row.justification, seq: row.seq}]->(e)
