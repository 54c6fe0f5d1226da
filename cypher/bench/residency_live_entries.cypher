// Benchmark (not product): live entries of a generated boundary, ids i in [$start, $end):
// every tenth a decision (a root), the rest facts. Ids: <boundary>-L<i>.
UNWIND range($start, $end - 1) AS i
CREATE (e:Entry {id: $boundary_id + '-L' + toString(i), boundary_id: $boundary_id,
                 class: CASE WHEN i % 10 = 0 THEN 'decision' ELSE 'fact' END,
                 key: 'live-' + toString(i), body: 'live entry ' + toString(i),
                 status: 'live', resident: true, tokens: 4, set_seq: 1, set_id: $set_id,
                 writer_id: 'bench', attributes: '{}', superseded_by_default: false,
                 created_at: $now})
WITH e, i
CALL (e, i) {
  WITH e WHERE i % 10 = 0
  SET e:Decision
}
CALL (e, i) {
  WITH e WHERE i % 10 <> 0
  SET e:Fact
}
RETURN count(e) AS created
