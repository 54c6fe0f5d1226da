// kg-context: walk one set of the ledger (what it decided, superseded, depended on, its
// receipts, the sets before and after it, and later sets that moved its entries)
// Parameters: $boundary_id, $set_id
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
OPTIONAL MATCH contains = (s)-[:CONTAINS]->(e:Entry)
OPTIONAL MATCH declared = (e)-[:SUPERSEDES|DERIVED_FROM|REQUIRES]->(:Entry)
OPTIONAL MATCH later = (:Set)-[:TRANSITIONED]->(e)
OPTIONAL MATCH built_on = (:Entry)-[:SUPERSEDES|DERIVED_FROM|REQUIRES]->(e)
OPTIONAL MATCH receipts = (:Receipt)-[:FOR]->(s)
OPTIONAL MATCH ledger = (:Set)-[:NEXT]->(s)-[:NEXT]->(:Set)
RETURN s, contains, declared, later, built_on, receipts, ledger
LIMIT 300
