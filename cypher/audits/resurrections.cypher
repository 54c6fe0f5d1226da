// Question: Which entries are live or resident in the record while the ledger (their latest
//   declared transition or executed supersession) left them out: used as live without passing
//   the gate?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: every row is an ungoverned write)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
WITH e,
     [(:Set)-[t:TRANSITIONED]->(e) | {seq: t.seq, rank: 1, status: t.to, resident: t.resident}] +
     [(:Entry)-[r:SUPERSEDES]->(e) WHERE r.executed |
       {seq: r.seq, rank: 0, status: 'superseded', resident: false}] AS events
WHERE size(events) > 0
WITH e, reduce(last = {seq: -1, rank: -1, status: 'live', resident: true}, ev IN events |
               CASE WHEN ev.seq > last.seq OR (ev.seq = last.seq AND ev.rank > last.rank)
                    THEN ev ELSE last END) AS last
WHERE (e.resident = true AND last.resident = false)
   OR (e.status IN ['live', 'revalidated'] AND NOT last.status IN ['live', 'revalidated'])
RETURN e.boundary_id AS boundary_id, e.id AS entry_id, e.key AS key, e.status AS status,
       e.resident AS resident, last.status AS ledger_status, last.resident AS ledger_resident,
       last.seq AS ledger_seq
ORDER BY boundary_id, entry_id
