// One entry by id with its boundary's current seq (for `why`).
MATCH (e:Entry {id: $entry_id})
OPTIONAL MATCH (b:Boundary {id: e.boundary_id})
RETURN e.id AS id, e.boundary_id AS boundary_id, e.class AS class, e.key AS key,
       e.status AS status, e.resident AS resident, b.seq AS seq
