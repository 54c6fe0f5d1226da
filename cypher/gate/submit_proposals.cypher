// Record proposals as pending, in submission order (idempotent: a known id is left as it is).
// The boundary's proposal serial orders submissions; it also takes the boundary's write lock.
MATCH (b:Boundary {id: $boundary_id})
SET b.proposal_serial = coalesce(b.proposal_serial, 0) + size($proposals)
WITH b, b.proposal_serial - size($proposals) AS base
UNWIND range(0, size($proposals) - 1) AS i
WITH b, base, i, $proposals[i] AS row
MERGE (p:Proposal {id: row.id})
  ON CREATE SET p += row.props, p.status = 'pending', p.serial = base + i, p.submitted_at = $now
RETURN p.id AS id, p.status AS status, p.digest AS digest, p.boundary_id AS boundary_id,
       p.set_id AS set_id
