// Record a constitution version (idempotent); return what the record holds for that version.
MERGE (c:Constitution {version: $version})
  ON CREATE SET c.sha256 = $sha256, c.rules = $rules, c.ratified_at = $now, c.ratified_by = $by
RETURN c.version AS version, c.sha256 AS sha256
