// An intruder makes an entry's own lease keep it resident, around the gate.
MATCH (e:Entry {boundary_id: $boundary_id, id: $entry_id})
SET e.lease_root = true, e.fresh_until_seq = 1000000
RETURN e.id AS id
