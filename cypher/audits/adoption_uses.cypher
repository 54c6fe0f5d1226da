// Question: What does one adoption receipt allow (keys, uses, validity), who issued it, and which
//   ratified sets used it (one USED_ADOPTION edge per use)?
// Parameters:
//   $receipt_id  the adoption receipt's id (a string, e.g. 'team-7/adoption/3f2a...')
// Expect: rows
MATCH (r:Receipt {id: $receipt_id})
WHERE r.kind = 'adoption'
OPTIONAL MATCH (s:Set)-[u:USED_ADOPTION]->(r)
WITH r, s, u ORDER BY u.seq
RETURN r.id AS id, r.boundary_id AS boundary_id, r.keys AS keys, r.uses AS allowed,
       r.valid_until_seq AS valid_until_seq, r.operator_id AS operator_id,
       count(u) AS uses, [x IN collect({set_id: s.id, boundary_id: s.boundary_id, seq: u.seq})
                          WHERE x.set_id IS NOT NULL] AS used_by
