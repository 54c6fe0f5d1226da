// One halt, its set, and the verbatim payloads of the set's proposals (submission order).
MATCH (h:Halt {id: $halt_id})-[:ON]->(s:Set)
OPTIONAL MATCH (p:Proposal)-[:IN_SET]->(s)
WITH h, s, p ORDER BY p.serial
RETURN h {.*} AS halt, s {.*} AS set, [x IN collect(p) | x.payload] AS payloads
