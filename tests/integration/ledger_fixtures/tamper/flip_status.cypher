// An intruder flips an entry's status and residency around the gate (labels kept in step).
MATCH (e:Entry {boundary_id: $boundary_id, id: $entry_id})
REMOVE e:Live:AtRisk:Retired:Superseded:Invalidated:Resident
SET e.status = $status, e.resident = $resident
RETURN e.id AS id
