// GLOBAL track records (the explicit option; track_records_in_boundary.cypher is the default):
// outcome counts over each specialist's last $window selected proposals in any boundary, for a
// whole wave (read backwards in index order from proposal_node_attention, stopping after $window).
// A proposal counts as a failure when it was reported invalidated, when an entry admitted from
// it is in a $failed_statuses status, or when the gate halted or rejected it; as a success when
// an admitted entry stands or the gate committed/reinforced it; otherwise it is pending.
UNWIND $specialist_ids AS specialist_id
CALL (specialist_id) {
  MATCH (p:ProposalNode)
  USING INDEX SEEK p:ProposalNode(specialist_id, selected, at)
  WHERE p.specialist_id = specialist_id AND p.selected = true AND p.at IS NOT NULL
  WITH p
  ORDER BY p.specialist_id DESC, p.selected DESC, p.at DESC
  LIMIT $window
  OPTIONAL MATCH (e:Entry)-[:ADMITTED_FROM]->(p)
  WITH p, [status IN collect(e.status) WHERE status IS NOT NULL] AS statuses
  WITH CASE
         WHEN p.outcome IN $failure_outcomes THEN 'failure'
         WHEN any(status IN statuses WHERE status IN $failed_statuses) THEN 'failure'
         WHEN size(statuses) > 0 THEN 'success'
         WHEN p.outcome IN $success_outcomes THEN 'success'
         ELSE 'pending'
       END AS verdict
  RETURN count(CASE WHEN verdict = 'success' THEN 1 END) AS successes,
         count(CASE WHEN verdict = 'failure' THEN 1 END) AS failures
}
RETURN specialist_id, successes, failures
