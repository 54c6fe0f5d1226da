// An operator's verse adoption receipt: global material (these keys) may enter this boundary.
MATCH (b:Boundary {id: $boundary_id})
CREATE (r:Receipt:AdoptionReceipt {id: $receipt_id, kind: 'adoption', at: $now,
                                   boundary_id: $boundary_id, operator_id: $operator_id,
                                   reason: $reason, keys: $keys,
                                   constitution_version: b.constitution_version})
CREATE (r)-[:FOR]->(b)
RETURN r.id AS id
