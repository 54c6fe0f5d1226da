// Uniqueness of a Writer within its boundary: a writer id is registered once per boundary, with
// the kind it keeps there.
CREATE CONSTRAINT writer_boundary_id_unique IF NOT EXISTS
FOR (n:Writer) REQUIRE (n.boundary_id, n.id) IS UNIQUE
