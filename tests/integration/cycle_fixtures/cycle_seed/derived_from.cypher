// TEST FIXTURE ONLY: (:Entry)-[:DERIVED_FROM {essential: true}]->(:Entry) between seeded entries.
UNWIND $links AS row
MATCH (a:Entry {id: row.from}), (b:Entry {id: row.to})
CREATE (a)-[:DERIVED_FROM {essential: true}]->(b)
RETURN count(*) AS created
