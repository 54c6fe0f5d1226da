// Standing entries marked superseded_by_default whose key now has a newer standing entry.
MATCH (old:Entry)
USING INDEX SEEK old:Entry(boundary_id, status)
WHERE old.boundary_id = $boundary_id AND old.status IN $standing
  AND old.superseded_by_default = true
MATCH (newer:Entry)
USING INDEX SEEK newer:Entry(boundary_id, status)
WHERE newer.boundary_id = $boundary_id AND newer.status IN $standing AND newer.key = old.key
  AND newer.set_seq > old.set_seq
WITH old, newer ORDER BY newer.set_seq DESC, newer.id
WITH old, collect(newer)[0] AS newest
RETURN old.id AS old_id, old.key AS key, newest.id AS new_id, newest.set_seq AS new_seq
ORDER BY old_id
