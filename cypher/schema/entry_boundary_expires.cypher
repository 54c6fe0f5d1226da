// Composite range index: the entries of one boundary by the work seq their own lease ends at.
// The gate reads the recall copies whose one use a committing batch spends here, so the read
// follows what expires now, not the size of the record.
CREATE INDEX entry_boundary_expires IF NOT EXISTS FOR (n:Entry) ON (n.boundary_id, n.expires_after_seq)
