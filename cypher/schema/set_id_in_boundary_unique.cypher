// Uniqueness of Set.id within its boundary: (boundary_id, id).
CREATE CONSTRAINT set_id_in_boundary_unique IF NOT EXISTS
FOR (n:Set) REQUIRE (n.boundary_id, n.id) IS UNIQUE
