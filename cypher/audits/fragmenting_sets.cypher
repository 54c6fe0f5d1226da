// Question: Which declared targets are shared by more than one ratified set within a span of
//   seqs (candidates for one change split across sets to evade a set-level invariant)? Each row
//   is a target with the sets touching it, in seq order, and their writers.
// Parameters:
//   $boundary_id  the boundary (a string)
//   $max_span     how many seqs apart two sets may be to count together (an integer, e.g. 10)
// Expect: rows
MATCH (s:Set)-[:CONTAINS]->(:Entry)-[:TARGETS]->(t:Target)
USING INDEX SEEK s:Set(boundary_id)
WHERE s.boundary_id = $boundary_id AND s.status = 'ratified'
WITH t, s ORDER BY s.seq
WITH t, collect(DISTINCT s) AS sets
WHERE size(sets) > 1
WITH t, sets,
     [i IN range(0, size(sets) - 2) WHERE sets[i + 1].seq - sets[i].seq <= $max_span] AS close
WHERE size(close) > 0
RETURN t.key AS target, size(sets) AS sets_touching,
       [x IN sets | x.id] AS set_ids, [x IN sets | x.seq] AS seqs,
       [x IN sets | x.writer_id] AS writers
ORDER BY sets_touching DESC, target
