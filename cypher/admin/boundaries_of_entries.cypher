// Every boundary that holds entries (by the (boundary_id) index of entries): what a data step of
// `kg-context schema apply` goes through one boundary at a time. Once per upgrade.
MATCH (e:Entry)
WHERE e.boundary_id IS NOT NULL
RETURN DISTINCT e.boundary_id AS boundary_id
ORDER BY boundary_id
