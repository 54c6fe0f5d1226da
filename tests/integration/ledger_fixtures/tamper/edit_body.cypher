// An intruder rewrites an entry's body around the gate.
MATCH (e:Entry {boundary_id: $boundary_id, id: $entry_id})
SET e.body = $body
RETURN e.id AS id
