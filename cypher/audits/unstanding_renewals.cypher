// Question: Which lease renewals rest on something that is not standing work: a renewal whose
//   set is not a ratified set of the boundary or is a czar compaction set, a live_reference or
//   use renewal whose renewing entry is not recorded, is not linked, or was created as a failed
//   attempt (explored), or a foundational renewal whose set no operator wrote?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate renews leases only from the standing entries of a
//   ratified work set, and records foundational marks only from a named operator's set)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (n:LeaseRenewal {boundary_id: b.id})
WHERE n.id IS NOT NULL
OPTIONAL MATCH (s:Set {boundary_id: b.id, id: n.set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
OPTIONAL MATCH (n)-[:BY]->(by:Entry)
WITH n, s, by
WHERE s IS NULL OR s.status <> 'ratified' OR s.kind = 'compaction'
   OR (n.kind <> 'foundational'
       AND (by IS NULL OR by.id <> n.by_id OR by.initial_status = 'explored'))
   OR (n.kind = 'foundational'
       AND NOT EXISTS { MATCH (s)-[:BY]->(w:Writer) WHERE w.kind = 'operator' })
RETURN n.boundary_id AS boundary_id, n.id AS renewal, n.kind AS kind, n.seq AS seq,
       n.set_id AS set_id, n.by_id AS by_id, n.from_id AS from_id, n.to_id AS to_id,
       s.status AS set_status, s.kind AS set_kind, by.initial_status AS by_initial_status
ORDER BY boundary_id, seq, renewal
