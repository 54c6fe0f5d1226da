// Entries of one boundary by key, for recall into the preconscious buffer (an admitted
// query_memory proposal). A seek on (boundary_id, key) per key: only this boundary's entries
// under these keys are read, whatever other boundaries hold under the same keys. Entries whose
// status is in $exclude_statuses are left out; the rest come back status-tagged, with their
// explicit outgoing links in the same boundary, sorted.
UNWIND $keys AS key
MATCH (e:Entry {boundary_id: $boundary_id, key: key})
USING INDEX e:Entry(boundary_id, key)
WHERE NOT e.status IN $exclude_statuses
WITH e ORDER BY e.id LIMIT $limit
OPTIONAL MATCH (e)-[:REQUIRES|DERIVED_FROM|SUMMARIZES]->(t:Entry {boundary_id: $boundary_id})
WITH e, t ORDER BY t.id
WITH e, collect(DISTINCT t.id) AS linked_ids
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body, e.class AS class,
       e.status AS status, linked_ids
ORDER BY id
