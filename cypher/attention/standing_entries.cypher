// Entries already standing in a boundary under insight keys (per-specialist content digests):
// the newest one per key, so a repeat win reinforces it instead of proposing a copy.
UNWIND $keys AS key
MATCH (e:Entry {key: key})
USING INDEX SEEK e:Entry(key)
WHERE e.boundary_id = $boundary_id AND e.status IN $standing
WITH key, e
ORDER BY e.set_seq DESC, e.id DESC
WITH key, collect(e.id)[0] AS entry_id
RETURN key, entry_id
