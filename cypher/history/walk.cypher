// The ledger walk from one set of a boundary: what it decided, superseded, depended on and transitioned
// (backwards), and what later superseded, transitioned or derived from its entries (forwards),
// with the neighbouring sets in ledger order.
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
OPTIONAL MATCH (prev:Set)-[:NEXT]->(s)
OPTIONAL MATCH (s)-[:NEXT]->(next:Set)
RETURN s.id AS set_id, s.boundary_id AS boundary_id, s.seq AS seq, s.status AS status,
       s.kind AS kind, s.writer_id AS writer_id, s.summary AS summary,
       prev.id AS previous_set_id, next.id AS next_set_id,
       [(s)-[:CONTAINS]->(e:Entry) |
         {entry: e.id, class: e.class, key: e.key, status: e.status, resident: e.resident}]
         AS decided,
       [(s)-[:CONTAINS]->(e:Entry)-[r:SUPERSEDES]->(old:Entry) |
         {entry: e.id, other: old.id, reason: r.reason, executed: r.executed,
          set_id: old.set_id, seq: old.set_seq, status: old.status}] AS superseded,
       [(s)-[:CONTAINS]->(e:Entry)-[r:DERIVED_FROM|REQUIRES]->(dep:Entry) |
         {entry: e.id, other: dep.id, edge: type(r), essential: r.essential, policy: r.policy,
          set_id: dep.set_id, seq: dep.set_seq, status: dep.status}] AS depended_on,
       [(s)-[t:TRANSITIONED]->(e:Entry) |
         {entry: e.id, from: t.from, to: t.to, reason: t.reason,
          justification: t.justification, set_id: e.set_id, seq: e.set_seq}] AS transitioned,
       [(s)-[:CONTAINS]->(e:Entry)<-[r:SUPERSEDES]-(newer:Entry) |
         {entry: e.id, other: newer.id, reason: r.reason, executed: r.executed,
          set_id: newer.set_id, seq: r.seq, status: newer.status}] AS superseded_by,
       [(s)-[:CONTAINS]->(e:Entry)<-[t:TRANSITIONED]-(later:Set) WHERE later.id <> s.id |
         {entry: e.id, from: t.from, to: t.to, reason: t.reason, set_id: later.id,
          seq: t.seq, kind: later.kind}] AS transitioned_later,
       [(s)-[:CONTAINS]->(e:Entry)<-[r:DERIVED_FROM|REQUIRES]-(child:Entry) |
         {entry: e.id, other: child.id, edge: type(r), essential: r.essential,
          policy: r.policy, set_id: child.set_id, seq: child.set_seq, status: child.status}]
         AS depended_on_by
