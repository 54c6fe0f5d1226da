// Uniqueness of Receipt.id.
CREATE CONSTRAINT receipt_id_unique IF NOT EXISTS FOR (n:Receipt) REQUIRE n.id IS UNIQUE
