// Every bus proposal of one broadcast, winners and inhibited alike, as a thought of the boundary:
// (:BusProposal:Thought), never an Entry, so it costs the window nothing.
// Idempotent (MERGE by (boundary_id, id): <broadcast id>/<subscriber>/<position>), so a driver
// retry after a lost acknowledgement is harmless. An id already recorded by ANOTHER broadcast
// (a different $at: a cycle run id reused in the boundary) is returned in `clashes`, and the
// caller refuses it: the first broadcast's thought is never overwritten, nor silently kept in
// place of the new one. The text is bounded (text_truncated,
// text_bound, and for a cut text text_chars and text_sha256 of the full text, null otherwise:
// kg_context/text/thoughts.py);
// boundary_token lets the thought_text_fulltext index find it by boundary.
// $rows: [{id, subscriber, kind, key, priority, exact, entry_ids, targets, penalty,
//          effective_priority, thought_outcome, thought_reason, inhibited_by, text, text_sha256,
//          text_chars, text_truncated, text_bound}]
UNWIND $rows AS row
MERGE (t:BusProposal {boundary_id: $boundary_id, id: row.id})
  ON CREATE SET t:Thought,
                t.boundary_token = $boundary_token,
                t.thought_source = $thought_source,
                t.broadcast_id = $broadcast_id,
                t.cycle = $cycle,
                t.at = $at,
                t.writer_id = row.subscriber,
                t.subscriber = row.subscriber,
                t.kind = row.kind,
                t.key = row.key,
                t.priority = row.priority,
                t.exact = row.exact,
                t.entry_ids = row.entry_ids,
                t.targets = row.targets,
                t.penalty = row.penalty,
                t.effective_priority = row.effective_priority,
                t.thought_outcome = row.thought_outcome,
                t.thought_reason = row.thought_reason,
                t.inhibited_by = row.inhibited_by,
                t.text = row.text,
                t.text_sha256 = row.text_sha256,
                t.text_chars = row.text_chars,
                t.text_truncated = row.text_truncated,
                t.text_bound = row.text_bound
WITH t, row
RETURN count(t) AS written,
       [c IN collect(CASE WHEN t.at <> $at THEN row.id END) WHERE c IS NOT NULL] AS clashes
