// An intruder re-links an entry's DERIVED_FROM edge to another entry around the gate.
MATCH (child:Entry {boundary_id: $boundary_id, id: $from})-[old:DERIVED_FROM]->(:Entry {id: $was})
MATCH (other:Entry {boundary_id: $boundary_id, id: $to})
CREATE (child)-[:DERIVED_FROM {essential: old.essential}]->(other)
DELETE old
RETURN child.id AS id
