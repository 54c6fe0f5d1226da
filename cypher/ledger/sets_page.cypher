// One page of a boundary's sets (ordered by id, after $after, at most $limit) with everything
// their ledger records digest (kg_context/gate/pure/ledger.py), read from the graph as it is now:
// the set (the properties named in $set_fields), its receipts and halts, the ratified set it follows (NEXT), its writers (BY), its
// adoption uses, the flips it made (TRANSITIONED), and its entries (the properties named in
// $entry_fields, with current status and residency) with their targets and the DERIVED_FROM,
// REQUIRES, SUPERSEDES and SUMMARIZES edges out of them (to: the entry reached), and, to check
// against their essential DERIVED_FROM edges (no record digests them), the entries their
// ESSENTIALLY_DERIVED_FROM edges reach ([boundary, id]) and any such edge into them from a node
// that is not an entry of their boundary.
MATCH (s:Set) USING INDEX SEEK s:Set(boundary_id, id)
WHERE s.boundary_id = $boundary_id AND s.id > $after
WITH s ORDER BY s.id LIMIT $limit
RETURN s.id AS id,
       [k IN $set_fields WHERE s[k] IS NOT NULL | [k, s[k]]] AS props,
       COLLECT { MATCH (r:Receipt)-[:FOR]->(s) RETURN properties(r) } AS receipts,
       COLLECT { MATCH (h:Halt)-[:ON]->(s) RETURN properties(h) } AS halts,
       COLLECT { MATCH (p:Set)-[:NEXT]->(s) RETURN p.id } AS next_from,
       COLLECT { MATCH (s)-[:BY]->(w:Writer) RETURN w.id } AS writers,
       COLLECT { MATCH (s)-[u:USED_ADOPTION]->(r:Receipt)
                 RETURN {receipt_id: r.id, seq: u.seq} } AS adoption_uses,
       COLLECT { MATCH (s)-[t:TRANSITIONED]->(e:Entry)
                 RETURN t {.*, entry_id: e.id} } AS flips,
       COLLECT { MATCH (s)-[:CONTAINS]->(e:Entry)
                 RETURN {props: [k IN $entry_fields WHERE e[k] IS NOT NULL | [k, e[k]]],
                         status: e.status, resident: e.resident,
                         targets: COLLECT { MATCH (e)-[:TARGETS]->(t:Target) RETURN t.key },
                         edges: COLLECT {
                           MATCH (e)-[r:DERIVED_FROM|REQUIRES|SUPERSEDES|SUMMARIZES]->(o:Entry)
                           RETURN {type: type(r), to: o.id, props: properties(r)} },
                         essential_to: COLLECT {
                           MATCH (e)-[:ESSENTIALLY_DERIVED_FROM]->(o)
                           RETURN [o.boundary_id, o.id] },
                         essential_from_elsewhere: COLLECT {
                           MATCH (e)<-[:ESSENTIALLY_DERIVED_FROM]-(o)
                           WHERE NOT (o:Entry AND o.boundary_id = e.boundary_id)
                           RETURN coalesce(o.id, elementId(o)) }} } AS entries
