// The standing entries (of any boundary) that hold each of $entry_ids of the boundary through a
// hard REQUIRES edge: what the czar must leave in the window while a holder stays (the gate's
// residency_hold halts a compaction that retires a held entry).
UNWIND $entry_ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
MATCH (d:Entry)-[h:REQUIRES]->(e)
WHERE h.policy = 'hard' AND d.status IN $standing
RETURN e.id AS id, collect(DISTINCT {id: d.id, boundary_id: d.boundary_id}) AS holders
