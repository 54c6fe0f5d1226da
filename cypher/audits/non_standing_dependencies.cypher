// Question: Which entries declared, without an operator's approval, REQUIRES or an essential
//   DERIVED_FROM on an entry of their boundary that was not standing when they were created (its
//   status then: the latest declared transition or executed supersession before their seq, else
//   the status it was created with)? Interfaces summarize non-standing originals by
//   construction and are left out, and so is an essential DERIVED_FROM on a retired entry
//   the same set brought back by the constitution's [on_dependency] rule (a copy the gate made,
//   its id the original's plus '@rehydrated-', which no writer may propose), and a dependency
//   on a recall copy's source the same set brought back resident under the [on_dependency]
//   recall_copy rule (a REHYDRATED transition retired -> live of that set, which the status
//   machine allows no writer).
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: a dependency on retired state halts NON_STANDING_DEPENDENCY)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})-[r:REQUIRES|DERIVED_FROM]->(t:Entry)
USING INDEX SEEK e:Entry(boundary_id)
WHERE t.boundary_id = e.boundary_id
  AND e.class <> 'interface' AND (type(r) = 'REQUIRES' OR r.essential = true)
  AND t.set_seq < e.set_seq
WITH e, r, t,
     [(:Set)-[tr:TRANSITIONED]->(t) WHERE tr.seq < e.set_seq | {seq: tr.seq, rank: 1, status: tr.to}] +
     [(:Entry)-[s:SUPERSEDES]->(t) WHERE s.executed AND s.seq < e.set_seq |
       {seq: s.seq, rank: 0, status: 'superseded'}] AS events
WITH e, r, t, reduce(last = {seq: -1, rank: -1, status: coalesce(t.initial_status, 'live')},
                     ev IN events |
                     CASE WHEN ev.seq > last.seq OR (ev.seq = last.seq AND ev.rank > last.rank)
                          THEN ev ELSE last END) AS then
WHERE NOT then.status IN ['live', 'revalidated', 'challenged', 'at_risk']
  AND NOT EXISTS { MATCH (h:Halt)-[:ON]->(own:Set {boundary_id: e.boundary_id, id: e.set_id})
                     USING INDEX SEEK own:Set(boundary_id, id)
                   WHERE h.reason_code = 'NON_STANDING_DEPENDENCY' AND h.resolution = 'approve' }
  AND NOT (type(r) = 'DERIVED_FROM' AND then.status = 'retired'
           AND EXISTS { MATCH (c)-[:DERIVED_FROM]->(t)
                        WHERE c.boundary_id = e.boundary_id AND c.set_id = e.set_id
                          AND c.id STARTS WITH t.id + '@rehydrated-' })
  AND NOT EXISTS { MATCH (own:Set {boundary_id: e.boundary_id, id: e.set_id})-[back:TRANSITIONED]->(t)
                     USING INDEX SEEK own:Set(boundary_id, id)
                   WHERE back.case = 'REHYDRATED' AND back.from = 'retired' AND back.to = 'live' }
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, e.set_seq AS seq, type(r) AS edge,
       t.id AS depends_on, then.status AS status_then
ORDER BY boundary_id, seq, entry_id
