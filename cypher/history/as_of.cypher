// The record as it stood right after seq $seq: every entry committed by then, with its status
// and residency derived from the ledger - the latest declared transition or executed
// supersession at or before $seq (a transition wins a tie), else the status it was created with
// (initial_status: live, or explored and out of the window) - never from its current status.
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id AND e.set_seq <= $seq
WITH e,
     [(:Set)-[t:TRANSITIONED]->(e) WHERE t.seq <= $seq |
       {seq: t.seq, rank: 1, status: t.to, resident: t.resident, by: null}] +
     [(n:Entry)-[r:SUPERSEDES]->(e) WHERE r.executed AND r.seq <= $seq |
       {seq: r.seq, rank: 0, status: 'superseded', resident: false, by: n.id}] AS events
WITH e, events, coalesce(e.initial_status, 'live') AS born
WITH e, reduce(last = {seq: -1, rank: -1, status: born, resident: born <> 'explored', by: null},
               ev IN events |
               CASE WHEN ev.seq > last.seq OR (ev.seq = last.seq AND ev.rank > last.rank)
                    THEN ev ELSE last END) AS last
RETURN e.id AS id, e.class AS class, e.key AS key, e.set_id AS set_id, e.set_seq AS set_seq,
       e.tokens AS tokens, last.status AS status, last.resident AS resident,
       CASE WHEN last.seq < 0 THEN e.set_seq ELSE last.seq END AS status_seq,
       last.by AS superseded_by
ORDER BY set_seq, id
