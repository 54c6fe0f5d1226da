// Benchmark (not product): the live residency graph: each decision L<10k> hard-requires fact
// L<10k+1>, and each fact L<i> soft-requires L<i+1> with a long lease, within its block of ten.
UNWIND range($start, $end - 1) AS i
WITH i WHERE i % 10 <> 9
MATCH (a:Entry {boundary_id: $boundary_id, id: $boundary_id + '-L' + toString(i)}),
      (b:Entry {boundary_id: $boundary_id, id: $boundary_id + '-L' + toString(i + 1)})
  USING INDEX SEEK a:Entry(boundary_id, id)
  USING INDEX SEEK b:Entry(boundary_id, id)
CREATE (a)-[:REQUIRES {policy: CASE WHEN i % 10 = 0 THEN 'hard' ELSE 'soft' END,
                       lease_until_seq: CASE WHEN i % 10 = 0 THEN null ELSE 1000000000 END,
                       needs: [], set_seq: 1}]->(b)
RETURN count(*) AS created
