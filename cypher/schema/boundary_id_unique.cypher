// Uniqueness of Boundary.id.
CREATE CONSTRAINT boundary_id_unique IF NOT EXISTS FOR (n:Boundary) REQUIRE n.id IS UNIQUE
