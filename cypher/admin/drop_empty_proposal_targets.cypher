// Schema version 11 on proposals written before it, one batch: an empty `targets` removed (the
// gate no longer stores it when empty; the payload holds the proposal's targets either way, and
// no statement reads the property). Touches nothing else; idempotent (only proposals holding an
// empty one change).
MATCH (p:Proposal)
WHERE p.targets = []
WITH p LIMIT $batch
REMOVE p.targets
RETURN count(p) AS written
