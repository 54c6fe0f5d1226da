// Entries leaving the window ($retiring) or retired out of it that dependents which stay
// resident ($dependent_ids) hold through a soft/reconstructible edge naming needs, and that no
// interface summarizes yet: their properties (embedding left out) and the union of the needs.
UNWIND $dependent_ids AS dependent_id
MATCH (d:Entry {boundary_id: $boundary_id, id: dependent_id})-[r:REQUIRES]->(t:Entry)
  USING INDEX SEEK d:Entry(boundary_id, id)
WHERE r.policy <> 'hard' AND size(coalesce(r.needs, [])) > 0
  AND t.boundary_id = $boundary_id AND (t.id IN $retiring OR t.status = 'retired')
  AND NOT EXISTS { (:Entry)-[:SUMMARIZES]->(t) }
WITH t, collect(DISTINCT d.id) AS holders, collect(r.needs) AS needs_lists
RETURN t.id AS id, t.key AS key, t.writer_id AS writer_id,
       [(w:Writer)<-[:BY]-(:Set)-[:CONTAINS]->(t) | w.id] AS set_writers,
       t {.*, embedding: null} AS props, holders,
       reduce(acc = [], ns IN needs_lists | acc + ns) AS needs
ORDER BY id
