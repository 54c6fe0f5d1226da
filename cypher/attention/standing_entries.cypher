// Entries already standing in a boundary under insight keys (per-specialist content digests):
// the newest one per key, so a repeat win reinforces it instead of proposing a copy. A seek on
// (boundary_id, key): other boundaries' entries under the same key are never read.
UNWIND $keys AS key
MATCH (e:Entry {boundary_id: $boundary_id, key: key})
USING INDEX SEEK e:Entry(boundary_id, key)
WHERE e.status IN $standing
WITH key, e
ORDER BY e.set_seq DESC, e.id DESC
WITH key, collect(e.id)[0] AS entry_id
RETURN key, entry_id
