// An operator's adoption receipt ($receipt: its props, kind 'adoption'): material with these
// keys (of another verse, or of this boundary referenced from another) may be admitted `uses`
// times, while this boundary's seq is at most `valid_until_seq` (null: no limit), and only
// material of `material_verse` where the operator stated one. Written under the boundary's lock
// by an operator the constitution names; never changed afterwards (uses are USED_ADOPTION
// edges). What it adopts into is read here, from the graph: the boundary's verse, and the
// constitution it was issued under (version and digest).
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL MATCH (c:Constitution {version: b.constitution_version})
CREATE (r:Receipt:AdoptionReceipt)
SET r = $receipt, r.verse = b.verse, r.constitution_version = b.constitution_version,
    r.constitution_sha256 = c.sha256
CREATE (r)-[:FOR]->(b)
RETURN r.id AS id
