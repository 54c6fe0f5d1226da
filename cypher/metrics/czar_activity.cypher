// When the czar of one boundary last ran and what it retired: the last report (seq, time,
// trigger, counts, warning) and the totals over every report (a traversal from the boundary).
MATCH (b:Boundary {id: $boundary_id})
CALL (b) {
  OPTIONAL MATCH (b)-[:CZAR_REPORT]->(r:CzarReport)
  RETURN count(r) AS runs, sum(coalesce(r.retired, 0)) AS retired_total,
         sum(coalesce(r.window_out, 0)) AS window_out_total,
         sum(CASE WHEN r.warning IS NULL THEN 0 ELSE 1 END) AS warnings
}
CALL (b) {
  OPTIONAL MATCH (b)-[:CZAR_REPORT]->(r:CzarReport)
  WITH r ORDER BY r.ran_at DESC LIMIT 1
  RETURN r AS last
}
RETURN runs, retired_total, window_out_total, warnings,
       last.seq AS last_seq, toString(last.ran_at) AS last_ran_at, last.trigger AS last_trigger,
       last.retired AS last_retired, last.window_out AS last_window_out,
       last.warning AS last_warning
