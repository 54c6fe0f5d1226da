// Question: Which lease renewals were recorded: what renewed which lease (the REQUIRES edge
//   from_id -> to_id), of which kind (live_reference, use, foundational), at which seq and work
//   seq, from which work seq until which (null: foundational, no end), in which set?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: rows
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (n:LeaseRenewal {boundary_id: b.id})
WHERE n.id IS NOT NULL
RETURN n.boundary_id AS boundary_id, n.id AS renewal, n.kind AS kind, n.seq AS seq,
       n.work_seq AS work_seq, n.from_id AS from_id, n.to_id AS to_id, n.by_id AS by_id,
       n.set_id AS set_id, n.previous_until AS previous_until, n.until AS until
ORDER BY boundary_id, seq, from_id, to_id, kind
