// The record status of entries of one boundary by id (any status), for the cycle: conscious
// items whose entry stopped standing since they were read leave the workspace before the next
// broadcast. Each id is sought through the (boundary_id, id) uniqueness index.
UNWIND $ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
RETURN e.id AS id, e.status AS status
ORDER BY id
