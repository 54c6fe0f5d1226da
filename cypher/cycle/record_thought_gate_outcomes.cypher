// The gate's decision on each durable bus winner (admit_fact, flag_contradiction), on its
// thought, and (:Entry)-[:ADMITTED_FROM]->(:BusProposal) for the entries it admitted. Every
// lookup names the boundary. Idempotent: SET of the same values, MERGE of the same links.
// $rows: [{id, gate_proposal_id, outcome, set_id, entry_ids}]
UNWIND $rows AS row
MATCH (t:BusProposal {boundary_id: $boundary_id, id: row.id})
SET t.gate_proposal_id = row.gate_proposal_id,
    t.gate_outcome = row.outcome,
    t.set_id = row.set_id
WITH t, row
UNWIND row.entry_ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
MERGE (e)-[:ADMITTED_FROM]->(t)
RETURN count(e) AS linked
