// One entry of a boundary by id, with the boundary's current seq and work seq (for `why`).
MATCH (e:Entry {boundary_id: $boundary_id, id: $entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
OPTIONAL MATCH (b:Boundary {id: $boundary_id})
RETURN e.id AS id, e.boundary_id AS boundary_id, e.class AS class, e.key AS key,
       e.status AS status, e.resident AS resident, b.seq AS seq,
       coalesce(b.work_seq, b.seq) AS work_seq
