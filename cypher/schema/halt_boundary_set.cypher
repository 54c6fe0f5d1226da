// Composite range index: the halts of a set, within its boundary (boundary_id, set_id).
CREATE INDEX halt_boundary_set IF NOT EXISTS FOR (n:Halt) ON (n.boundary_id, n.set_id)
