// The window: every resident entry of one boundary (index seek on boundary_id, resident).
MATCH (e:Entry)
USING INDEX SEEK e:Entry(boundary_id, resident)
WHERE e.boundary_id = $boundary_id AND e.resident = true
RETURN e.id AS id, e.class AS class, e.key AS key, coalesce(e.body, '') AS body,
       e.status AS status, coalesce(e.tokens, 0) AS tokens, e.set_seq AS set_seq,
       e.set_id AS set_id, coalesce(e.attributes, '{}') AS attributes,
       e.expires_after_seq AS expires_after_seq
ORDER BY class, set_seq, id
