// Entries of one boundary by id, for the preconscious buffer (recurrent link activation and recall
// by id): one batched read. Entries whose status is in $exclude_statuses (retired, invalidated)
// are left out. linked_ids: the entry's explicit outgoing links in the same boundary
// (REQUIRES, DERIVED_FROM, SUMMARIZES), sorted.
// Each id is sought through the (boundary_id, id) uniqueness index (a WHERE on the list let the
// planner pick the boundary_id index and filter a large boundary).
UNWIND $ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
WHERE NOT e.status IN $exclude_statuses
OPTIONAL MATCH (e)-[:REQUIRES|DERIVED_FROM|SUMMARIZES]->(t:Entry {boundary_id: $boundary_id})
WITH e, t ORDER BY t.id
WITH e, collect(DISTINCT t.id) AS linked_ids
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body, e.class AS class,
       e.status AS status, linked_ids
ORDER BY id
