// One czar run's report, kept in the graph: (:Boundary)-[:CZAR_REPORT]->(:CzarReport). $props
// carries what the run proposed and the gate decided (id, czar_id, trigger, planned_at_seq,
// proposed, retired, window_out, window_in, interfaces, expired_leases, halted, sets, warning);
// the window it left is read here, in the same transaction: the boundary's seq and running token
// counts, and the resident entries (an index seek on (boundary_id, resident)). Like every write
// transaction of a boundary, it takes the boundary's lock first, by a plain write (see
// cypher/gate/lock_boundary.cypher): a relationship created on the boundary node without it
// deadlocks against concurrent commits. The same transaction ends the run's claim when run
// $run_id still holds it (as cypher/czar/release_run.cypher does), so a finished run takes the
// boundary's lock once after its sets, not twice.
MATCH (b:Boundary {id: $boundary_id})
SET b.czar_reported_at = datetime($ran_at)
WITH b
SET b.czar_run_until = CASE WHEN b.czar_run_id = $run_id THEN datetime() ELSE b.czar_run_until END
WITH b
CALL (b) {
  MATCH (e:Entry) USING INDEX SEEK e:Entry(boundary_id, resident)
  WHERE e.boundary_id = b.id AND e.resident = true
  RETURN count(e) AS resident_entries
}
CREATE (b)-[:CZAR_REPORT]->(r:CzarReport)
SET r = $props,
    r.boundary_id = b.id,
    r.seq = coalesce(b.seq, 0),
    r.ran_at = datetime($ran_at),
    r.resident_entries = resident_entries,
    r.resident_tokens = coalesce(b.resident_tokens, 0),
    r.committed_tokens = coalesce(b.committed_tokens, 0)
RETURN r.id AS id, r.boundary_id AS boundary_id, r.seq AS seq, toString(r.ran_at) AS ran_at,
       r.trigger AS trigger, r.proposed AS proposed, r.retired AS retired,
       r.window_out AS window_out, r.interfaces AS interfaces, r.halted AS halted,
       r.resident_entries AS resident_entries, r.resident_tokens AS resident_tokens,
       r.committed_tokens AS committed_tokens, r.warning AS warning, r.took_ms AS took_ms
