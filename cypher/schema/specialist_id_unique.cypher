// Uniqueness of Specialist.id.
CREATE CONSTRAINT specialist_id_unique IF NOT EXISTS FOR (n:Specialist) REQUIRE n.id IS UNIQUE
