// Fulltext over entry keys and bodies, with the boundary as one token (boundary_token, written by
// the gate: kg_context/db/text_index.py), so a search filters by boundary inside the index
// (`+boundary_token:<token> +(words)`) and ranks only that boundary's entries (history search
// returns set ids, never bare passages).
CREATE FULLTEXT INDEX entry_body_fulltext IF NOT EXISTS
FOR (n:Entry) ON EACH [n.key, n.body, n.boundary_token]
