// Range index: Set.boundary_id (queries filter on it).
CREATE INDEX set_boundary_id IF NOT EXISTS FOR (n:Set) ON (n.boundary_id)
