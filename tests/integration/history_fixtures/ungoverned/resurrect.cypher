// Test-only (never product): a write that bypasses the gate, putting a retired entry back into
// live state and the window, so the resurrection audit has something to find.
MATCH (e:Entry {id: $entry_id})
SET e.status = 'live', e.resident = true
