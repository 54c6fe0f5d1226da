// Schema version 11 on sets written before it, one batch: an empty `lineage` or `dependencies`
// removed (the gate no longer stores either when empty; gate/load_snapshot.cypher reads an
// absent one as []). Neither is sealed into the ledger. Touches nothing else; idempotent (only
// sets holding an empty one change).
MATCH (s:Set)
WHERE s.lineage = [] OR s.dependencies = []
WITH s LIMIT $batch
SET s.lineage = CASE WHEN s.lineage = [] THEN null ELSE s.lineage END,
    s.dependencies = CASE WHEN s.dependencies = [] THEN null ELSE s.dependencies END
RETURN count(s) AS written
