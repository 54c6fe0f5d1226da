// Record proposals as pending, in submission order (idempotent: a known id is left as it is).
// The boundary's proposal serial orders submissions. The boundary's write lock comes first, by
// a plain write (see lock_boundary.cypher: a read-modify-write SET as the first lock deadlocks).
MATCH (b:Boundary {id: $boundary_id})
SET b.last_submitted_at = $now
WITH b
SET b.proposal_serial = coalesce(b.proposal_serial, 0) + size($proposals)
WITH b, b.proposal_serial - size($proposals) AS base
UNWIND range(0, size($proposals) - 1) AS i
WITH b, base, i, $proposals[i] AS row
MERGE (p:Proposal {boundary_id: $boundary_id, id: row.id})
  ON CREATE SET p += row.props, p.status = 'pending', p.serial = base + i, p.submitted_at = $now
RETURN p.id AS id, p.status AS status, p.digest AS digest, p.boundary_id AS boundary_id,
       p.set_id AS set_id
