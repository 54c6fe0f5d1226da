// Interface compaction: (:Interface)-[:SUMMARIZES {seq}]->(:Entry), for each interface entry and
// the original it is essentially DERIVED_FROM (written with the ratified set).
UNWIND $summarizes AS row
MATCH (interface:Entry {boundary_id: $boundary_id, id: row.from}),
      (original:Entry {boundary_id: $boundary_id, id: row.to})
CREATE (interface)-[:SUMMARIZES {seq: row.seq}]->(original)
