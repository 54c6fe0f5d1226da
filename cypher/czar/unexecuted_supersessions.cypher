// Declared supersession not yet executed (append-only mode, or an approved declaration): the
// superseded entry is still standing, whatever its superseder became (its status is returned:
// the czar executes only what a standing superseder of the same key declared). Starts from the
// boundary's standing entries (index), never from history.
MATCH (old:Entry)
USING INDEX SEEK old:Entry(boundary_id, status)
WHERE old.boundary_id = $boundary_id AND old.status IN $standing
MATCH (new:Entry)-[s:SUPERSEDES]->(old)
WHERE s.executed = false
RETURN old.id AS old_id, old.key AS old_key, new.id AS new_id, new.key AS new_key,
       new.status AS new_status,
       s.seq AS seq, s.reason AS reason
ORDER BY s.seq, old_id, new_id
