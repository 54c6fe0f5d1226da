// One constitution version: its TOML text and digest.
MATCH (c:Constitution {version: $version})
RETURN c.version AS version, c.sha256 AS sha256, c.rules AS rules, c.ratified_at AS ratified_at
