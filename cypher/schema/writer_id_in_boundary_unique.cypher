// Uniqueness of Writer.id within its boundary: (boundary_id, id); a writer is a node of the
// boundary it writes to, so nothing is shared (or locked) across boundaries.
CREATE CONSTRAINT writer_id_in_boundary_unique IF NOT EXISTS
FOR (n:Writer) REQUIRE (n.boundary_id, n.id) IS UNIQUE
