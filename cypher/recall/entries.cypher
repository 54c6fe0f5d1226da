// Entries of one boundary by id, with what recall copies and tags: status, set, superseder.
UNWIND $ids AS entry_id
WITH DISTINCT entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(e)
WITH e, newer ORDER BY newer.set_seq DESC, newer.id
WITH e, collect(newer.id)[0] AS superseded_by
RETURN e.id AS id, e.class AS class, e.key AS key, coalesce(e.body, '') AS body,
       e.status AS status, e.resident AS resident, e.set_id AS set_id, e.set_seq AS set_seq,
       superseded_by
ORDER BY id
