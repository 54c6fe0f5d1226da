// Uniqueness of Constitution.version.
CREATE CONSTRAINT constitution_version_unique IF NOT EXISTS FOR (n:Constitution) REQUIRE n.version IS UNIQUE
