// Benchmark data (not product): entries of a provenance DAG by a bare UNWIND, each with its
// DERIVED_FROM edges (essential or supporting) to entries created in earlier batches, and beside
// each essential one its ESSENTIALLY_DERIVED_FROM, as the gate writes them.
UNWIND $rows AS row
CREATE (e:Entry:Decision {id: row.id, boundary_id: $boundary_id, class: 'decision',
                          key: row.id, body: 'benchmark entry', status: 'live', resident: true,
                          set_seq: row.level, tokens: 2})
WITH e, row
UNWIND row.parents AS p
MATCH (parent:Entry {boundary_id: $boundary_id, id: p.id})
  USING INDEX SEEK parent:Entry(boundary_id, id)
CREATE (e)-[:DERIVED_FROM {essential: p.essential}]->(parent)
FOREACH (_ IN CASE WHEN p.essential THEN [1] ELSE [] END |
  CREATE (e)-[:ESSENTIALLY_DERIVED_FROM]->(parent))
