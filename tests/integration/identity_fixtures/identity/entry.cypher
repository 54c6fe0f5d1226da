// Test fixture: one entry by boundary and id.
MATCH (e:Entry {boundary_id: $boundary_id, id: $id})
RETURN e.id AS id, e.status AS status, e.resident AS resident, e.body AS body
