// Declared targets: (:Entry)-[:TARGETS]->(:Target).
UNWIND $targets AS row
MATCH (e:Entry {id: row.entry_id})
MERGE (t:Target {key: row.key})
MERGE (e)-[:TARGETS]->(t)
