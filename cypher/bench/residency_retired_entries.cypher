// Benchmark (not product): retired history, ids <boundary>-R<i> for i in [$start, $end), each
// once a dependent of live entry L<i % $live> (a REQUIRES edge into the live graph) and the
// first $live of them also targets of an expired soft lease from L<i>.
UNWIND range($start, $end - 1) AS i
MATCH (l:Entry {boundary_id: $boundary_id, id: $boundary_id + '-L' + toString(i % $live)})
  USING INDEX SEEK l:Entry(boundary_id, id)
CREATE (r:Entry:Fact {id: $boundary_id + '-R' + toString(i), boundary_id: $boundary_id,
                      class: 'fact', key: 'old-' + toString(i % 1000),
                      body: 'retired entry ' + toString(i), status: 'retired', resident: false,
                      tokens: 4, set_seq: 1, set_id: $set_id, writer_id: 'bench',
                      attributes: '{}', superseded_by_default: false, created_at: $now})
CREATE (r)-[:REQUIRES {policy: 'hard', lease_until_seq: null, needs: [], set_seq: 1}]->(l)
CREATE (l)-[:DERIVED_FROM {essential: false}]->(r)
WITH l, r, i WHERE i < $live
CREATE (l)-[:REQUIRES {policy: 'soft', lease_until_seq: 0, needs: [], set_seq: 0}]->(r)
RETURN count(*) AS created
