// Question: Every operator resolution of a halt in a boundary: who decided what, why, how long the
//   halt stayed open, and what an approval declared but could not execute.
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (r:Receipt)
WHERE r.boundary_id = $boundary_id AND r.halt_id IS NOT NULL
  AND r.kind IN ['resolution', 'rejection']
RETURN r.halt_id AS halt_id, r.set_id AS set_id, r.decision AS decision,
       r.operator_id AS operator_id, r.reason AS reason, r.reason_code AS reason_code,
       r.resolution_seconds AS resolution_seconds, coalesce(r.not_executed, []) AS not_executed
ORDER BY r.at
