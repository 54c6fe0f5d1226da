// Entries of one boundary by key, for recall into the preconscious buffer (an admitted
// query_memory proposal). Entries whose status is in $exclude_statuses are left out; the rest
// come back status-tagged, with their explicit outgoing links in the same boundary, sorted.
MATCH (e:Entry)
WHERE e.key IN $keys AND e.boundary_id = $boundary_id AND NOT e.status IN $exclude_statuses
OPTIONAL MATCH (e)-[:REQUIRES|DERIVED_FROM|SUMMARIZES]->(t:Entry {boundary_id: $boundary_id})
WITH e, t ORDER BY t.id
WITH e, collect(DISTINCT t.id) AS linked_ids
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body, e.class AS class,
       e.status AS status, linked_ids
ORDER BY id
LIMIT $limit
