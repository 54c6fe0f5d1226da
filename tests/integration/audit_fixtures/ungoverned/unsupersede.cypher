// Test-only (never product): a write that bypasses the gate, putting a superseded entry back
// to live (its labels untouched), so the invariant audits have something to find.
MATCH (e:Entry {id: $entry_id})
SET e.status = 'live'
