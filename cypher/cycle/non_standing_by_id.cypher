// The entries of one boundary among $ids whose status is in $not_standing (superseded, retired,
// invalidated, explored): what an admitted query_memory proposal named by id that may reach the
// conscious workspace only as a recall copy the gate admits (cycle._recall). copy_id: the newest
// standing copy of it from a ratified recall set, if one is still held (the cycle reads that
// copy instead of admitting another: one admission per use, not one per cycle). Each id is
// sought through the (boundary_id, id) uniqueness index.
UNWIND $ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
WHERE e.status IN $not_standing
OPTIONAL MATCH (s)-[:CONTAINS]->(copy:Entry)-[:DERIVED_FROM]->(e)
  WHERE s.boundary_id = $boundary_id AND s.kind = $recall_kind AND copy.class = $scratch_class
    AND NOT copy.status IN $not_standing
WITH e, copy ORDER BY copy.set_seq DESC, copy.id
WITH e, collect(copy.id)[0] AS copy_id
RETURN e.id AS id, e.key AS key, e.status AS status, copy_id
ORDER BY id
