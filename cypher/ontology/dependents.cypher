// The standing dependents ($standing) of the entries an ontology change re-classes ($ids), one
// hop: entries of the same boundary that REQUIRES one of them (any policy) or DERIVED_FROM one
// essentially. An entry in $ids itself is not its own dependent. Each id is sought through the
// (boundary_id, id) uniqueness index.
UNWIND $ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})<-[r:REQUIRES|DERIVED_FROM]-(d:Entry)
  USING INDEX SEEK e:Entry(boundary_id, id)
WHERE d.boundary_id = $boundary_id AND d.status IN $standing AND NOT d.id IN $ids
  AND (type(r) = 'REQUIRES' OR r.essential = true)
WITH DISTINCT d
RETURN d.id AS id, d.status AS status
ORDER BY d.set_seq, d.id
