// Declared provenance (permanent): (:Entry)-[:DERIVED_FROM {essential}]->(:Entry).
UNWIND $derived AS row
MATCH (child:Entry {boundary_id: $boundary_id, id: row.from}),
      (parent:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (child)-[:DERIVED_FROM {essential: row.essential}]->(parent)
