// Range index: Entry.boundary_id (queries filter on it).
CREATE INDEX entry_boundary_id IF NOT EXISTS FOR (n:Entry) ON (n.boundary_id)
