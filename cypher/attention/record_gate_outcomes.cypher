// What the gate of one boundary decided for each broadcast winner, and the entries it admitted
// from it (set and entry ids are that boundary's: the ProposalNode records the boundary too).
// outcome: commit | halt | reject (the word of the gate) or reinforce (a repeat win of an entry that
// already stands: the new ProposalNode links to the existing entry instead of adding a copy).
// A ProposalNode of another boundary is never touched.
// $rows: [{proposal_id, outcome, entry_ids, set_id, receipt_id}]
UNWIND $rows AS row
MATCH (p:ProposalNode {id: row.proposal_id})
WHERE p.boundary_id IS NULL OR p.boundary_id = $boundary_id
SET p.outcome = row.outcome,
    p.boundary_id = $boundary_id,
    p.outcome_at = $at,
    p.set_id = row.set_id,
    p.receipt_id = row.receipt_id
WITH p, row
UNWIND row.entry_ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
USING INDEX SEEK e:Entry(boundary_id, id)
MERGE (e)-[:ADMITTED_FROM]->(p)
RETURN count(*) AS linked
