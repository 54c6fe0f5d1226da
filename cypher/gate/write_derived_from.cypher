// Declared provenance (permanent): (:Entry)-[:DERIVED_FROM {essential}]->(:Entry).
UNWIND $derived AS row
MATCH (child:Entry {id: row.from}), (parent:Entry {id: row.to})
CREATE (child)-[:DERIVED_FROM {essential: row.essential}]->(parent)
