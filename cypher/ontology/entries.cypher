// Entries by id in one boundary, with what a migration copies (class, key, body, verse).
UNWIND $ids AS entry_id
WITH DISTINCT entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
RETURN e.id AS id, e.class AS class, e.key AS key, e.body AS body, e.verse AS verse,
       e.status AS status, e.attributes AS attributes, e.set_id AS set_id
ORDER BY e.id
