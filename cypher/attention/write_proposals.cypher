// Record one wave of scored specialist outputs, winners and losers, in one transaction.
// Idempotent (MERGE by id), so a driver retry after a lost commit acknowledgement is harmless.
// Every ProposalNode records the boundary its wave ran for ($boundary_id; null for a wave with no
// boundary, which only the global scope counts).
// $rows: [{id, specialist_id, task_id, wave_id, relevance, track_record, confidence,
//          confidence_source, composite, selected, rank, at, embedding, digest}]
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
                p.embedding = row.embedding,
                p.digest = row.digest
MERGE (p)-[:PROPOSED_BY]->(s)
MERGE (p)-[:PROPOSED_FOR]->(t)
RETURN count(p) AS written
