// Composite range index: the standing (non-retired) entries of one boundary, by status. The
// reachability walk starts here, so its cost follows live state, not the size of the record.
CREATE INDEX entry_boundary_status IF NOT EXISTS FOR (n:Entry) ON (n.boundary_id, n.status)
