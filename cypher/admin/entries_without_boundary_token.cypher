// The boundaries that hold entries written before schema version 3 (no boundary_token): what
// `kg-context schema apply` backfills. One scan of the entries, once per upgrade.
MATCH (e:Entry)
WHERE e.boundary_token IS NULL AND e.boundary_id IS NOT NULL
RETURN DISTINCT e.boundary_id AS boundary_id
ORDER BY boundary_id
