// Uniqueness of Target.key.
CREATE CONSTRAINT target_key_unique IF NOT EXISTS FOR (n:Target) REQUIRE n.key IS UNIQUE
