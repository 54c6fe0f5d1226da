// Question: How did the retention ratio evolve: after each seq where something changed, the
//   cumulative committed tokens, the resident tokens (replayed from the ledger: commits,
//   declared transitions, executed supersessions), and their ratio?
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id
CALL (e) {
  WITH e,
       [(:Set)-[t:TRANSITIONED]->(e) WHERE t.resident IS NOT NULL |
         {seq: t.seq, rank: 1, resident: t.resident}] +
       [(:Entry)-[r:SUPERSEDES]->(e) WHERE r.executed = true |
         {seq: r.seq, rank: 0, resident: false}] AS events
  UNWIND (CASE WHEN size(events) = 0 THEN [null] ELSE events END) AS ev
  WITH e, ev ORDER BY ev.seq, ev.rank
  WITH e, [x IN collect(ev) WHERE x IS NOT NULL] AS ordered
  WITH e, e.status <> 'explored' AS born_resident, ordered
  WITH e, reduce(acc = {resident: born_resident,
                        changes: [{seq: e.set_seq, committed: e.tokens,
                                   resident: CASE WHEN born_resident THEN e.tokens ELSE 0 END}]},
                 ev IN ordered |
                 CASE WHEN ev.resident = acc.resident THEN acc
                      ELSE {resident: ev.resident,
                            changes: acc.changes + [{seq: ev.seq, committed: 0,
                                                     resident: CASE WHEN ev.resident
                                                               THEN e.tokens
                                                               ELSE -e.tokens END}]} END) AS acc
  UNWIND acc.changes AS change
  RETURN change
}
WITH change.seq AS seq, sum(change.committed) AS committed, sum(change.resident) AS resident
ORDER BY seq
WITH collect({seq: seq, committed: committed, resident: resident}) AS steps
UNWIND range(0, size(steps) - 1) AS i
WITH steps[i].seq AS seq,
     reduce(c = 0, x IN steps[0..i + 1] | c + x.committed) AS committed_tokens,
     reduce(r = 0, x IN steps[0..i + 1] | r + x.resident) AS resident_tokens
RETURN seq, committed_tokens, resident_tokens,
       CASE WHEN resident_tokens > 0 THEN toFloat(committed_tokens) / resident_tokens END
         AS retention_ratio
ORDER BY seq
