// The boundary's root-class entries that are no longer standing (why a window has no live root),
// newest first: index seeks on (boundary_id, status).
MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, status)
WHERE e.boundary_id = $boundary_id AND NOT e.status IN $standing AND e.class IN $root_classes
RETURN e.id AS id, e.class AS class, e.status AS status
ORDER BY e.set_seq DESC, e.id
LIMIT 5
