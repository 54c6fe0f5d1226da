// The writers of each decided set: (:Set)-[:BY]->(:Writer).
UNWIND $writers AS row
MERGE (w:Writer {id: row.id})
  ON CREATE SET w.kind = row.kind
WITH w, row
MATCH (s:Set {id: row.set_id})
MERGE (s)-[:BY]->(w)
