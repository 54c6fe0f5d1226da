// Record a constitution version (idempotent); return what the record holds for that version.
// Beside its text, the ids it names as czars and operators (what the audits check authority
// against, without parsing TOML); a version recorded before those were kept gets them from the
// same text (never from another: the digest must match).
MERGE (c:Constitution {version: $version})
  ON CREATE SET c.sha256 = $sha256, c.rules = $rules, c.ratified_at = $now, c.ratified_by = $by,
                c.czars = $czars, c.operators = $operators
WITH c
FOREACH (_ IN CASE WHEN c.sha256 = $sha256 AND c.czars IS NULL THEN [1] ELSE [] END |
  SET c.czars = $czars, c.operators = $operators)
RETURN c.version AS version, c.sha256 AS sha256
