// An intruder creates an entry around the gate and files it under an existing set.
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})
CREATE (e:Entry:Fact:Live:Resident {id: $entry_id, boundary_id: $boundary_id, class: 'fact',
                                    key: 'forged', body: 'forged fact', status: 'live',
                                    resident: true, initial_status: 'live', set_id: $set_id,
                                    set_seq: s.seq, tokens: 2})
CREATE (s)-[:CONTAINS]->(e)
RETURN e.id AS id
