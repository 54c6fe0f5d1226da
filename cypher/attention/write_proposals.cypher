// Record one wave of scored specialist outputs, winners and losers, in one transaction.
// Idempotent (MERGE by id), so a driver retry after a lost commit acknowledgement is harmless.
// Every ProposalNode records the boundary its wave ran for ($boundary_id; null for a wave with no
// boundary, which only the global scope counts).
// Every ProposalNode is a Thought too: its text, bounded (text_truncated,
// text_bound, and for a cut text text_chars and text_sha256 of the full text, null otherwise:
// kg_context/text/thoughts.py), what it
// came to in its wave (thought_outcome won|lost, thought_reason) and boundary_token, so the
// thought_text_fulltext index finds it by boundary. Never an Entry: no window cost. The output's
// embedding is not stored: the wave is scored in memory (relevance, the cosine of query and
// output, is stored), and no statement reads an embedding back from a ProposalNode.
// What a node's label and its other properties already say is not stored again: its writer is
// specialist_id (no writer_id), its thought source is its label (no thought_source: readers take
// 'attention' for a ProposalNode), and its content digest is stored only for a cut text (row.digest
// null otherwise: an uncut text's digest is the digest of its text, kg_context/attention/scoring.py).
// $rows: [{id, specialist_id, task_id, wave_id, relevance, track_record, confidence,
//          confidence_source, composite, selected, rank, at, digest, text,
//          text_sha256, text_chars, text_truncated, text_bound, thought_outcome, thought_reason}]
// $boundary_token: the boundary's one-token form (null with no boundary)
UNWIND $rows AS row
MERGE (s:Specialist {id: row.specialist_id})
MERGE (t:Task {id: row.task_id})
MERGE (p:ProposalNode {id: row.id})
  ON CREATE SET p.specialist_id = row.specialist_id,
                p.boundary_id = $boundary_id,
                p.task_id = row.task_id,
                p.wave_id = row.wave_id,
                p.relevance = row.relevance,
                p.track_record = row.track_record,
                p.confidence = row.confidence,
                p.confidence_source = row.confidence_source,
                p.composite = row.composite,
                p.selected = row.selected,
                p.rank = row.rank,
                p.at = row.at,
                p.digest = row.digest,
                p.text = row.text,
                p.text_sha256 = row.text_sha256,
                p.text_chars = row.text_chars,
                p.text_truncated = row.text_truncated,
                p.text_bound = row.text_bound,
                p.thought_outcome = row.thought_outcome,
                p.thought_reason = row.thought_reason,
                p.boundary_token = $boundary_token,
                p:Thought
MERGE (p)-[:PROPOSED_BY]->(s)
MERGE (p)-[:PROPOSED_FOR]->(t)
RETURN count(p) AS written
