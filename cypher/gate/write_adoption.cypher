// An operator's adoption receipt: material with these keys (of another verse, or of this
// boundary referenced from another) may be admitted `uses` times, while this boundary's seq is
// at most `valid_until_seq` (null: no limit). Written under the boundary's lock by an operator
// the constitution names; never changed afterwards (uses are USED_ADOPTION edges).
MATCH (b:Boundary {id: $boundary_id})
CREATE (r:Receipt:AdoptionReceipt {id: $receipt_id, kind: 'adoption', at: $now,
                                   boundary_id: $boundary_id, operator_id: $operator_id,
                                   reason: $reason, keys: $keys, uses: $uses,
                                   valid_until_seq: $valid_until_seq,
                                   constitution_version: b.constitution_version})
CREATE (r)-[:FOR]->(b)
RETURN r.id AS id
