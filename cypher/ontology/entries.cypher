// Entries by id in one boundary, with what a migration copies (class, key, body, verse).
MATCH (e:Entry)
WHERE e.id IN $ids AND e.boundary_id = $boundary_id
RETURN e.id AS id, e.class AS class, e.key AS key, e.body AS body, e.verse AS verse,
       e.status AS status, e.attributes AS attributes, e.set_id AS set_id
ORDER BY e.id
