// The history index of a boundary by seq (the window reads the last resident_last lines; the
// history reads a seq range).
CREATE INDEX index_entry_boundary_seq IF NOT EXISTS FOR (i:IndexEntry) ON (i.boundary_id, i.seq)
