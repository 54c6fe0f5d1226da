// Sets of a boundary by seq (the gate reads the fragment window: the last sets ratified).
CREATE INDEX set_boundary_seq IF NOT EXISTS FOR (s:Set) ON (s.boundary_id, s.seq)
