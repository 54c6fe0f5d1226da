// Fulltext over entry keys and bodies (history search returns set ids, never bare passages).
CREATE FULLTEXT INDEX entry_body_fulltext IF NOT EXISTS FOR (n:Entry) ON EACH [n.key, n.body]
