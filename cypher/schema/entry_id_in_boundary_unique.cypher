// Uniqueness of Entry.id within its boundary: (boundary_id, id). Every lookup by id carries the
// boundary id and seeks this constraint's index.
CREATE CONSTRAINT entry_id_in_boundary_unique IF NOT EXISTS
FOR (n:Entry) REQUIRE (n.boundary_id, n.id) IS UNIQUE
