// TEST FIXTURE ONLY: (:Entry)-[:REQUIRES {policy: 'hard'}]->(:Entry) between seeded entries.
UNWIND $links AS row
MATCH (a:Entry {id: row.from}), (b:Entry {id: row.to})
CREATE (a)-[:REQUIRES {policy: 'hard'}]->(b)
RETURN count(*) AS created
