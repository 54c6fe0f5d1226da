// Composite range index: the live window of one boundary (boundary_id, resident).
CREATE INDEX entry_boundary_resident IF NOT EXISTS FOR (n:Entry) ON (n.boundary_id, n.resident)
